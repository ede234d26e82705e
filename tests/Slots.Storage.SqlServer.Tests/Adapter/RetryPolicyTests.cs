using System.Data.Common;
using Slots.Reservations;
using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer.Tests.Adapter;

public sealed class RetryPolicyTests
{
    private static readonly ReserveResult Reserved = ReserveResult.Reserved("ABCDE-FGHJK");
    private static readonly ReserveResult SlotFull = new(ReservationStatus.SlotFull, null);

    private readonly List<TimeSpan> _delays = [];

    private SqlServerRetryPolicy Policy(int maxAttempts = 5) => new(
        new SqlServerRetryOptions { MaxAttempts = maxAttempts, BaseDelay = TimeSpan.FromMilliseconds(2), MaxDelay = TimeSpan.FromMilliseconds(20) },
        FakeSqlErrorException.NumberOf,
        (delay, _) => { _delays.Add(delay); return Task.CompletedTask; });

    public static TheoryData<int> ConflictNumbers() => [41302, 41305, 41325, 41301, 41839];

    [Theory]
    [MemberData(nameof(ConflictNumbers))]
    public async Task Reserve_retries_a_conflict_and_answers_the_retry(int number)
    {
        var operation = new FailingOperation<ReserveResult?>(Reserved, number, number);

        var answer = await Policy().ExecuteAsync(operation.RunAsync, SqlServerReservationStore.ReserveRetryOn, () => SlotFull, TestContext.Current.CancellationToken);

        Assert.Equal(Reserved, answer);
        Assert.Equal(3, operation.Calls);
        Assert.Equal(2, _delays.Count);
    }

    [Theory]
    [MemberData(nameof(ConflictNumbers))]
    public async Task Reserve_answers_SlotFull_when_conflicts_outlast_the_retries(int number)
    {
        var operation = new FailingOperation<ReserveResult?>(Reserved, Enumerable.Repeat(number, 10).ToArray());

        var answer = await Policy(maxAttempts: 4).ExecuteAsync(operation.RunAsync, SqlServerReservationStore.ReserveRetryOn, () => SlotFull, TestContext.Current.CancellationToken);

        Assert.Equal(SlotFull, answer);
        Assert.Equal(4, operation.Calls);
    }

    [Theory]
    [InlineData(2627)]
    [InlineData(2601)]
    public async Task Reserve_retries_a_duplicate_idempotency_key_so_the_retry_replays(int number)
    {
        var replay = new ReserveResult(ReservationStatus.Reserved, "ABCDE-FGHJK", Replayed: true);
        var operation = new FailingOperation<ReserveResult?>(replay, number);

        var answer = await Policy().ExecuteAsync(operation.RunAsync, SqlServerReservationStore.ReserveRetryOn, () => SlotFull, TestContext.Current.CancellationToken);

        Assert.Equal(replay, answer);
    }

    [Theory]
    [MemberData(nameof(ConflictNumbers))]
    public async Task Cancel_throws_a_DbException_when_conflicts_outlast_the_retries(int number)
    {
        var operation = new FailingOperation<CancelStatus>(CancelStatus.Cancelled, Enumerable.Repeat(number, 10).ToArray());

        var thrown = await Assert.ThrowsAsync<StorageConflictException>(async () =>
            await Policy(maxAttempts: 3).ExecuteAsync(operation.RunAsync, SqlServerErrors.Conflicts, exhausted: null, TestContext.Current.CancellationToken));

        Assert.IsAssignableFrom<DbException>(thrown); // the API's handler answers DbException with 503 + Retry-After
        Assert.Equal(number, thrown.ErrorNumber);
        Assert.Equal(3, operation.Calls);
    }

    [Fact]
    public async Task Cancel_does_not_retry_a_duplicate_key()
    {
        var operation = new FailingOperation<CancelStatus>(CancelStatus.Cancelled, 2627);

        await Assert.ThrowsAsync<FakeSqlErrorException>(async () =>
            await Policy().ExecuteAsync(operation.RunAsync, SqlServerErrors.Conflicts, exhausted: null, TestContext.Current.CancellationToken));
        Assert.Equal(1, operation.Calls);
    }

    [Theory]
    [InlineData(41823)]
    [InlineData(41840)]
    public async Task Memory_quota_becomes_StorageCapacityException_at_once(int number)
    {
        var operation = new FailingOperation<ReserveResult?>(Reserved, number);

        var thrown = await Assert.ThrowsAsync<StorageCapacityException>(async () =>
            await Policy().ExecuteAsync(operation.RunAsync, SqlServerReservationStore.ReserveRetryOn, () => SlotFull, TestContext.Current.CancellationToken));

        Assert.IsAssignableFrom<DbException>(thrown);
        Assert.Equal(number, thrown.ErrorNumber);
        Assert.Equal(1, operation.Calls);
        Assert.Empty(_delays);
    }

    [Theory]
    [InlineData(1205)]   // a disk-side deadlock is not the hot path's business: surface it
    [InlineData(547)]    // constraint violation: a bug
    [InlineData(50001)]  // the procs' own THROW
    public async Task Other_errors_propagate_unchanged_without_retry(int number)
    {
        var operation = new FailingOperation<ReserveResult?>(Reserved, number);

        var thrown = await Assert.ThrowsAsync<FakeSqlErrorException>(async () =>
            await Policy().ExecuteAsync(operation.RunAsync, SqlServerReservationStore.ReserveRetryOn, () => SlotFull, TestContext.Current.CancellationToken));

        Assert.Equal(number, thrown.Number);
        Assert.Equal(1, operation.Calls);
    }

    [Fact]
    public async Task Exceptions_without_an_error_number_propagate()
    {
        var policy = Policy();

        await Assert.ThrowsAsync<TimeoutException>(async () => await policy.ExecuteAsync<int>(
            _ => throw new TimeoutException(), SqlServerErrors.Conflicts, () => 0, TestContext.Current.CancellationToken));
    }

    [Fact]
    public void Backoff_grows_with_jitter_and_stays_under_the_cap()
    {
        var policy = Policy();
        for (var attempt = 1; attempt <= 20; attempt++)
        {
            var expected = Math.Min(2 * Math.Pow(2, attempt - 1), 20);
            var delay = policy.Backoff(attempt).TotalMilliseconds;
            Assert.InRange(delay, Math.Min(expected * 0.5, 20) - 0.001, 20.001);
        }
    }

    [Fact]
    public async Task Cancellation_during_back_off_stops_the_retries()
    {
        using var cts = new CancellationTokenSource();
        var policy = new SqlServerRetryPolicy(new SqlServerRetryOptions(), FakeSqlErrorException.NumberOf,
            (_, _) => { cts.Cancel(); return Task.FromCanceled(cts.Token); });
        var operation = new FailingOperation<int>(1, 41302, 41302, 41302);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () =>
            await policy.ExecuteAsync(operation.RunAsync, SqlServerErrors.Conflicts, () => 0, cts.Token));
        Assert.Equal(1, operation.Calls);
    }
}
