using System.Data.Common;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Slots.Reservations;
using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer.Tests.Adapter;

/// <summary>SqlServerColdReservationStore's retries and outcome mapping, over procs that raise error numbers or answer raw numbers.</summary>
public sealed class ColdStoreTests
{
    private static readonly DateTimeOffset Now = new(2026, 3, 1, 12, 0, 0, TimeSpan.Zero);
    private static readonly SlotKey Slot = new(7, new DateOnly(2026, 4, 20), 600);
    private static readonly ReserveCommand ReserveCommand =
        new(Slot, "person", "+421900000001", "Test Person", "en", "ABCDE-FGHJK", "key-1", "fp", Now);
    private static readonly CancelCommand CancelCommand = new("ABCDE-FGHJK", new ContactProof("+421900000001", null), Now);
    private static readonly RescheduleCommand RescheduleCommand = new("ABCDE-FGHJK", new ContactProof(null, "person"), Slot, Now);

    private readonly FakeColdProcs _procs = new();
    private readonly List<TimeSpan> _delays = [];

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    private SqlServerColdReservationStore Store(int maxAttempts = 5) => SqlServerColdReservationStore.Over(_procs, new SqlServerRetryPolicy(
        new SqlServerRetryOptions { MaxAttempts = maxAttempts, BaseDelay = TimeSpan.FromMilliseconds(1), MaxDelay = TimeSpan.FromMilliseconds(4) },
        FakeSqlErrorException.NumberOf,
        (delay, _) => { _delays.Add(delay); return Task.CompletedTask; }));

    public static TheoryData<int> ConflictNumbers() => [41302, 41305, 41325, 41301, 41839];

    public static TheoryData<int> ReserveRetried() => [41302, 41305, 41325, 41301, 41839, 2627, 2601, 1205];

    public static TheoryData<int> ChangeRetried() => [41302, 41305, 41325, 41301, 41839, 1205];

    // --- mapping ---

    [Theory]
    [InlineData(1, ReservationStatus.Reserved)]
    [InlineData(2, ReservationStatus.SlotFull)]
    [InlineData(3, ReservationStatus.AlreadyBooked)]
    [InlineData(4, ReservationStatus.UnknownSlot)]
    [InlineData(5, ReservationStatus.SlotStarted)]
    public async Task Reserve_maps_each_outcome_of_a_done_call_with_its_code_and_replay_flag(int outcome, ReservationStatus status)
    {
        _procs.Reserve = new(new ColdProcAnswer(0, outcome, "KMNPQ-RSTVW", Replayed: true));

        var answer = await Store().ReserveAsync(ReserveCommand, Ct);

        Assert.Equal(new Cold<ReserveResult?>(ColdRoute.Done, new ReserveResult(status, "KMNPQ-RSTVW", Replayed: true)), answer);
        Assert.Same(ReserveCommand, Assert.Single(_procs.Commands));
    }

    [Fact]
    public async Task Reserve_outcome_8_is_a_reused_key_answered_with_null() =>
        Assert.Equal(new Cold<ReserveResult?>(ColdRoute.Done, null),
            await StoreAnswering(reserve: new ColdProcAnswer(0, 8)).ReserveAsync(ReserveCommand, Ct));

    [Fact]
    public async Task Reserve_on_a_day_that_became_hot_answers_NowHot_without_a_value() =>
        Assert.Equal(new Cold<ReserveResult?>(ColdRoute.NowHot, null),
            await StoreAnswering(reserve: new ColdProcAnswer(1, -1)).ReserveAsync(ReserveCommand, Ct));

    [Theory]
    [InlineData(2, 1)]   // AcrossWindow is a reschedule's answer only
    [InlineData(3, 1)]   // no such route
    [InlineData(-1, 1)]  // the proc left @route NULL
    [InlineData(0, 0)]   // the in-progress marker of the key row must never be an answer
    [InlineData(0, 9)]
    public async Task Reserve_answers_a_proc_cannot_give_are_bugs(int route, int outcome) =>
        await Assert.ThrowsAsync<InvalidOperationException>(() => StoreAnswering(reserve: new ColdProcAnswer(route, outcome)).ReserveAsync(ReserveCommand, Ct));

    [Theory]
    [InlineData(1, CancelStatus.Cancelled)]
    [InlineData(2, CancelStatus.NotFound)]
    [InlineData(3, CancelStatus.Started)]
    public async Task Cancel_maps_each_outcome(int outcome, CancelStatus status) =>
        Assert.Equal(new Cold<CancelStatus>(ColdRoute.Done, status),
            await StoreAnswering(cancel: new ColdProcAnswer(0, outcome)).CancelAsync(CancelCommand, Ct));

    [Fact]
    public async Task Cancel_on_a_day_that_became_hot_answers_NowHot() =>
        Assert.Equal(new Cold<CancelStatus>(ColdRoute.NowHot, CancelStatus.NotFound),
            await StoreAnswering(cancel: new ColdProcAnswer(1, 2)).CancelAsync(CancelCommand, Ct));

    [Theory]
    [InlineData(2, 2)]
    [InlineData(0, 5)] // 4 is CheckedIn now (dbo.cancel answers it); the cancel outcomes end there
    public async Task Cancel_answers_a_proc_cannot_give_are_bugs(int route, int outcome) =>
        await Assert.ThrowsAsync<InvalidOperationException>(() => StoreAnswering(cancel: new ColdProcAnswer(route, outcome)).CancelAsync(CancelCommand, Ct));

    [Theory]
    [InlineData(1, RescheduleStatus.Rescheduled)]
    [InlineData(2, RescheduleStatus.NotFound)]
    [InlineData(3, RescheduleStatus.SlotFull)]
    [InlineData(4, RescheduleStatus.UnknownSlot)]
    [InlineData(5, RescheduleStatus.SlotStarted)]
    [InlineData(6, RescheduleStatus.Started)]
    public async Task Reschedule_maps_each_outcome(int outcome, RescheduleStatus status) =>
        Assert.Equal(new Cold<RescheduleStatus>(ColdRoute.Done, status),
            await StoreAnswering(reschedule: new ColdProcAnswer(0, outcome)).RescheduleAsync(RescheduleCommand, Ct));

    [Theory]
    [InlineData(1, ColdRoute.NowHot, RescheduleStatus.NotFound)]
    [InlineData(2, ColdRoute.AcrossWindow, RescheduleStatus.UnknownSlot)]
    public async Task Reschedule_routes_as_the_EF_Core_cold_path_does(int route, ColdRoute expected, RescheduleStatus status) =>
        Assert.Equal(new Cold<RescheduleStatus>(expected, status),
            await StoreAnswering(reschedule: new ColdProcAnswer(route, 4)).RescheduleAsync(RescheduleCommand, Ct));

    [Fact]
    public async Task Reschedule_with_an_unknown_route_is_a_bug() =>
        await Assert.ThrowsAsync<InvalidOperationException>(() => StoreAnswering(reschedule: new ColdProcAnswer(5, 1)).RescheduleAsync(RescheduleCommand, Ct));

    [Fact]
    public async Task Availability_and_horizon_pass_the_stored_horizon_through()
    {
        var horizon = new DateOnly(2026, 3, 31);
        SlotAvailability[] slots = [new(Slot, 15, 3, 2, 1_776_679_200)];
        _procs.Horizon = horizon;
        _procs.Slots = slots;

        var (seen, cold) = await Store().AvailabilityAsync(Slot.PlaceId, horizon, horizon.AddDays(30), Ct);

        Assert.Equal(horizon, seen);
        Assert.Equal(slots, cold);
        Assert.Equal(horizon, await Store().HorizonAsync(Slot.PlaceId, Ct));
    }

    [Fact]
    public async Task An_unknown_place_has_the_default_horizon_as_on_the_EF_Core_cold_path()
    {
        _procs.Horizon = null;

        Assert.Equal(default, (await Store().AvailabilityAsync(99, Slot.Day, Slot.Day, Ct)).Horizon);
        Assert.Equal(default, await Store().HorizonAsync(99, Ct));
    }

    // --- retries ---

    [Theory]
    [MemberData(nameof(ReserveRetried))]
    public async Task Reserve_retries_the_whole_call_and_answers_the_retry(int number)
    {
        _procs.Reserve = new(new ColdProcAnswer(0, 1, "ABCDE-FGHJK", Replayed: true), number, number);

        var answer = await Store().ReserveAsync(ReserveCommand, Ct);

        Assert.Equal(new ReserveResult(ReservationStatus.Reserved, "ABCDE-FGHJK", Replayed: true), answer.Value);
        Assert.Equal(3, _procs.Reserve.Calls);
        Assert.Equal(2, _delays.Count);
        Assert.All(_procs.Commands, c => Assert.Same(ReserveCommand, c)); // the same code and key each time
    }

    [Theory]
    [MemberData(nameof(ReserveRetried))]
    public async Task Reserve_answers_SlotFull_when_conflicts_outlast_the_retries(int number)
    {
        _procs.Reserve = new(new ColdProcAnswer(0, 1, "ABCDE-FGHJK"), Enumerable.Repeat(number, 10).ToArray());

        var answer = await Store(maxAttempts: 4).ReserveAsync(ReserveCommand, Ct);

        Assert.Equal(new Cold<ReserveResult?>(ColdRoute.Done, new ReserveResult(ReservationStatus.SlotFull, null)), answer);
        Assert.Equal(4, _procs.Reserve.Calls);
    }

    [Theory]
    [MemberData(nameof(ChangeRetried))]
    public async Task Cancel_retries_conflicts_and_deadlocks(int number)
    {
        _procs.Cancel = new(new ColdProcAnswer(0, 1), number);

        Assert.Equal(CancelStatus.Cancelled, (await Store().CancelAsync(CancelCommand, Ct)).Value);
        Assert.Equal(2, _procs.Cancel.Calls);
    }

    [Theory]
    [MemberData(nameof(ChangeRetried))]
    public async Task Cancel_throws_a_DbException_when_conflicts_outlast_the_retries(int number)
    {
        _procs.Cancel = new(new ColdProcAnswer(0, 1), Enumerable.Repeat(number, 10).ToArray());

        var thrown = await Assert.ThrowsAsync<StorageConflictException>(() => Store(maxAttempts: 3).CancelAsync(CancelCommand, Ct));

        Assert.IsAssignableFrom<DbException>(thrown); // the API answers 503 + Retry-After
        Assert.Equal(number, thrown.ErrorNumber);
        Assert.Equal(3, _procs.Cancel.Calls);
    }

    [Theory]
    [InlineData(2627)]
    [InlineData(2601)]
    public async Task Cancel_and_reschedule_do_not_retry_a_duplicate_key(int number)
    {
        _procs.Cancel = new(new ColdProcAnswer(0, 1), number);
        _procs.Reschedule = new(new ColdProcAnswer(0, 1), number);

        await Assert.ThrowsAsync<FakeSqlErrorException>(() => Store().CancelAsync(CancelCommand, Ct));
        await Assert.ThrowsAsync<FakeSqlErrorException>(() => Store().RescheduleAsync(RescheduleCommand, Ct));
        Assert.Equal((1, 1), (_procs.Cancel.Calls, _procs.Reschedule.Calls));
    }

    [Theory]
    [MemberData(nameof(ChangeRetried))]
    public async Task Reschedule_retries_and_answers_SlotFull_when_conflicts_outlast_the_retries(int number)
    {
        _procs.Reschedule = new(new ColdProcAnswer(0, 1), Enumerable.Repeat(number, 10).ToArray());

        var answer = await Store(maxAttempts: 3).RescheduleAsync(RescheduleCommand, Ct);

        Assert.Equal(new Cold<RescheduleStatus>(ColdRoute.Done, RescheduleStatus.SlotFull), answer);
        Assert.Equal(3, _procs.Reschedule.Calls);
    }

    [Theory]
    [InlineData(41823)]
    [InlineData(41840)]
    public async Task Memory_quota_becomes_StorageCapacityException_at_once_on_every_write(int number)
    {
        _procs.Reserve = new(default, number);
        _procs.Cancel = new(default, number);
        _procs.Reschedule = new(default, number);

        Assert.Equal(number, (await Assert.ThrowsAsync<StorageCapacityException>(() => Store().ReserveAsync(ReserveCommand, Ct))).ErrorNumber);
        Assert.Equal(number, (await Assert.ThrowsAsync<StorageCapacityException>(() => Store().CancelAsync(CancelCommand, Ct))).ErrorNumber);
        Assert.Equal(number, (await Assert.ThrowsAsync<StorageCapacityException>(() => Store().RescheduleAsync(RescheduleCommand, Ct))).ErrorNumber);
        Assert.Equal((1, 1, 1), (_procs.Reserve.Calls, _procs.Cancel.Calls, _procs.Reschedule.Calls));
        Assert.Empty(_delays);
    }

    [Theory]
    [InlineData(547)]     // constraint violation: a bug
    [InlineData(50040)]   // dbo.cold_reserve's own THROW
    [InlineData(41368)]   // a hot table without WITH (SNAPSHOT): a bug in the script, not a race
    public async Task Other_errors_propagate_unchanged_without_retry(int number)
    {
        _procs.Reserve = new(default, number);

        var thrown = await Assert.ThrowsAsync<FakeSqlErrorException>(() => Store().ReserveAsync(ReserveCommand, Ct));

        Assert.Equal(number, thrown.Number);
        Assert.Equal(1, _procs.Reserve.Calls);
    }

    private SqlServerColdReservationStore StoreAnswering(ColdProcAnswer? reserve = null, ColdProcAnswer? cancel = null, ColdProcAnswer? reschedule = null)
    {
        if (reserve is { } r)
        {
            _procs.Reserve = new(r);
        }
        if (cancel is { } c)
        {
            _procs.Cancel = new(c);
        }
        if (reschedule is { } s)
        {
            _procs.Reschedule = new(s);
        }
        return Store();
    }
}
