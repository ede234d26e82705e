using Microsoft.Extensions.DependencyInjection;
using Slots.Staff;
using Slots.Storage;
using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer.Tests.Adapter;

/// <summary>SqlServerStaffStore's check-in: dbo.staff_check_in's numbers as answers, and the loser of a race retried.</summary>
public sealed class StaffStoreTests
{
    private static readonly DateTimeOffset Now = new(2026, 3, 1, 9, 45, 0, TimeSpan.Zero);
    private static readonly CheckInCommand Command = new("ABCDE-FGHJK", 7, "nurse-2", Now);

    private readonly List<TimeSpan> _delays = [];

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    private SqlServerStaffStore Store(FailingOperation<CheckInProcAnswer> proc, int maxAttempts = 5) => SqlServerStaffStore.Over(
        new ServiceCollection().BuildServiceProvider().GetRequiredService<IServiceScopeFactory>(),
        (_, ct) => proc.RunAsync(ct),
        new SqlServerRetryPolicy(
            new SqlServerRetryOptions { MaxAttempts = maxAttempts, BaseDelay = TimeSpan.FromMilliseconds(1), MaxDelay = TimeSpan.FromMilliseconds(4) },
            FakeSqlErrorException.NumberOf,
            (delay, _) => { _delays.Add(delay); return Task.CompletedTask; }));

    public static TheoryData<int> ConflictNumbers() => [41302, 41305, 41325, 41301, 41839];

    [Fact]
    public async Task Status_1_is_this_check_in_at_its_time_by_its_staff_member() =>
        Assert.Equal(new CheckInAnswer(CheckInStatus.CheckedIn, Now, "nurse-2"),
            await Store(new(new CheckInProcAnswer(1, Now.ToUnixTimeSeconds(), "nurse-2"))).CheckInAsync(Command, Ct));

    [Fact]
    public async Task Status_2_answers_the_first_check_in_with_its_time_and_staff_member()
    {
        var first = Now.AddMinutes(-3);

        var answer = await Store(new(new CheckInProcAnswer(2, first.ToUnixTimeSeconds(), "nurse-1"))).CheckInAsync(Command, Ct);

        Assert.Equal(new CheckInAnswer(CheckInStatus.AlreadyCheckedIn, first, "nurse-1"), answer);
    }

    [Fact]
    public async Task Status_4_is_a_booking_the_citizen_cancelled_first() =>
        Assert.Equal(new CheckInAnswer(CheckInStatus.Cancelled),
            await Store(new(new CheckInProcAnswer(4))).CheckInAsync(Command, Ct));

    [Theory]
    [InlineData(0)]
    [InlineData(3)]
    [InlineData(5)]
    public async Task Statuses_the_proc_cannot_give_are_bugs(int status) =>
        await Assert.ThrowsAsync<InvalidOperationException>(() => Store(new(new CheckInProcAnswer(status))).CheckInAsync(Command, Ct));

    // The loser of a race with the citizen's cancel gets 41302 at once; its retry sees the winner.
    [Theory]
    [MemberData(nameof(ConflictNumbers))]
    public async Task A_conflict_is_retried_and_the_retry_answers_what_the_winner_did(int number)
    {
        var proc = new FailingOperation<CheckInProcAnswer>(new CheckInProcAnswer(4), number);

        var answer = await Store(proc).CheckInAsync(Command, Ct);

        Assert.Equal(CheckInStatus.Cancelled, answer.Status);
        Assert.Equal(2, proc.Calls);
        Assert.Single(_delays);
    }

    [Fact]
    public async Task Conflicts_past_the_attempts_are_a_StorageConflictException()
    {
        var proc = new FailingOperation<CheckInProcAnswer>(new CheckInProcAnswer(1), 41302, 41302, 41302);

        await Assert.ThrowsAsync<StorageConflictException>(() => Store(proc, maxAttempts: 3).CheckInAsync(Command, Ct));
        Assert.Equal(3, proc.Calls);
    }

    // The no-show job inserted the code's attendance row after this call's snapshot: the retry reads it and overrides it.
    [Theory]
    [InlineData(2627)]
    [InlineData(2601)]
    public async Task A_duplicate_key_from_a_racer_is_retried(int number)
    {
        var proc = new FailingOperation<CheckInProcAnswer>(new CheckInProcAnswer(1), number);

        var answer = await Store(proc).CheckInAsync(Command, Ct);

        Assert.Equal(CheckInStatus.CheckedIn, answer.Status);
        Assert.Equal(2, proc.Calls);
    }

    [Fact]
    public async Task Other_errors_are_not_retried()
    {
        var proc = new FailingOperation<CheckInProcAnswer>(new CheckInProcAnswer(1), 547);

        await Assert.ThrowsAsync<FakeSqlErrorException>(() => Store(proc).CheckInAsync(Command, Ct));
        Assert.Equal(1, proc.Calls);
    }

    [Fact]
    public async Task The_memory_quota_is_a_StorageCapacityException() =>
        await Assert.ThrowsAsync<StorageCapacityException>(() =>
            Store(new FailingOperation<CheckInProcAnswer>(new CheckInProcAnswer(1), 41823)).CheckInAsync(Command, Ct));
}
