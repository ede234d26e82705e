namespace Slots.Window;

/// <summary>
/// The operations that keep the hot window and the disk tables in agreement, one per scheduler
/// job. Every one is idempotent: running it twice in a row changes nothing the second time.
/// </summary>
public interface IWindowSync
{
    /// <summary>Moves the days entering each place's window into the hot tables (seats, cold-path reservations, horizon).</summary>
    Task<WindowMove> AdvanceAsync(CancellationToken ct);

    /// <summary>Drains change records into the disk reservations, in id order, in short transactions of at most batchSize changes.</summary>
    Task<int> FlushAsync(int batchSize, CancellationToken ct);

    /// <summary>Removes the days that ended in each place's time zone from the hot tables, after flushing them a last time.</summary>
    Task<int> EvictAsync(int batchSize, CancellationToken ct);

    /// <summary>When the oldest change still waiting for the flush was made; null when none waits.</summary>
    Task<DateTimeOffset?> OldestPendingChangeAsync(CancellationToken ct);
}
