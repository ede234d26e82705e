namespace Slots.Storage.SqlServer;

/// <summary>How often and how long the adapter retries In-Memory OLTP conflicts.</summary>
public sealed record SqlServerRetryOptions
{
    /// <summary>Attempts in all, the first included.</summary>
    public int MaxAttempts { get; init; } = 5;

    /// <summary>The first back-off; it doubles per attempt, with ±50 % jitter so racers spread out.</summary>
    public TimeSpan BaseDelay { get; init; } = TimeSpan.FromMilliseconds(1);

    public TimeSpan MaxDelay { get; init; } = TimeSpan.FromMilliseconds(50);
}

/// <summary>
/// Retries conflicts with a bounded, jittered back-off and turns the memory quota into
/// <see cref="StorageCapacityException"/>. Built over an error-number reader rather than
/// SqlException itself, so tests drive it with any exception that carries a number.
/// </summary>
public sealed class SqlServerRetryPolicy(
    SqlServerRetryOptions options,
    Func<Exception, int?> errorNumber,
    Func<TimeSpan, CancellationToken, Task>? delay = null)
{
    private readonly Func<TimeSpan, CancellationToken, Task> _delay = delay ?? Task.Delay;

    /// <summary>The policy the adapter uses: SqlException numbers, real delays.</summary>
    public static SqlServerRetryPolicy For(SqlServerRetryOptions options) => new(options, SqlServerErrors.NumberOf);

    /// <summary>
    /// Runs <paramref name="attempt"/>; on a number in <paramref name="retryOn"/> tries again, up
    /// to MaxAttempts. When the attempts are spent: <paramref name="exhausted"/>'s answer if given
    /// (reserve: the slot is seen taken, SlotFull), else <see cref="StorageConflictException"/>.
    /// </summary>
    public async ValueTask<T> ExecuteAsync<T>(
        Func<CancellationToken, ValueTask<T>> attempt,
        IReadOnlySet<int> retryOn,
        Func<T>? exhausted,
        CancellationToken ct)
    {
        for (var n = 1; ; n++)
        {
            try
            {
                return await attempt(ct);
            }
            catch (Exception e) when (errorNumber(e) is { } number && SqlServerErrors.MemoryQuota.Contains(number))
            {
                throw new StorageCapacityException(number, e);
            }
            catch (Exception e) when (errorNumber(e) is { } number && retryOn.Contains(number))
            {
                if (n >= options.MaxAttempts)
                {
                    return exhausted is not null ? exhausted() : throw new StorageConflictException(number, e);
                }
                await _delay(Backoff(n), ct);
            }
        }
    }

    /// <summary>Delay before attempt n + 1: BaseDelay × 2^(n-1), jittered ±50 %, at most MaxDelay.</summary>
    public TimeSpan Backoff(int attempt)
    {
        var exponential = options.BaseDelay.TotalMilliseconds * Math.Pow(2, Math.Min(attempt - 1, 16));
        var jittered = exponential * (0.5 + Random.Shared.NextDouble());
        return TimeSpan.FromMilliseconds(Math.Min(jittered, options.MaxDelay.TotalMilliseconds));
    }
}
