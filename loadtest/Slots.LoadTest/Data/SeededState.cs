using System.Data.Common;
using System.Diagnostics;

namespace Slots.LoadTest.Data;

/// <summary>What a reset took away: the bookings the scenarios before had made, and how long it took; whether it ended
/// with a checkpoint (PostgreSQL, where the user may ask for one).</summary>
public sealed record ResetResult(long Reservations, long SeatsFreed, double Seconds, bool Checkpointed = false);

/// <summary>
/// Puts a seeded database back the way the seeder left it, so every scenario of a benchmark
/// starts on the same supply: no seat taken, nobody holding a booking, no idempotency key, no
/// outbox row, change record or history, no waiting-room opening. The catalogue, the slots and
/// the seats stay (reseeding 5.1 M seats would cost half a minute per scenario and restart the
/// API instances). The API instances may stay up: the booking path keeps nothing between
/// requests that a reset leaves stale for longer than the availability snapshot's age (1 s).
/// </summary>
public static class SeededState
{
    // Every table a booking, a cancellation, the flush, the SMS relay or the waiting room writes.
    private static readonly string[] Written =
    [
        "hot_reservations", "active_persons", "idempotency", "outbox", "changes", "reservations", "sms_sent",
        "waiting_room_claims", "waiting_room_waves", "waiting_room_joins", "waiting_room_openings", "dose_pairs",
    ];

    public static async Task<ResetResult> RestoreAsync(Provider provider, string connectionString, CancellationToken ct)
    {
        var clock = Stopwatch.StartNew();
        await using var db = await Database.OpenAsync(provider, connectionString, ct);
        var pg = provider == Provider.Postgres;
        var (reservations, freed) = await Database.AgainOnDeadlockAsync(() => ClearAsync(db, pg, ct));
        // The planner and the visibility map as after the seed: the freed seats and the codes given back were updated rows.
        // Unvacuumed, the next run's reads of a code paid for pruning the reset's row versions, which a campaign's codes,
        // spent once, never leave behind.
        await Database.ExecuteAsync(db, pg ? "VACUUM (ANALYZE) hot_seats, invitation_codes" : "ANALYZE", ct);
        var checkpointed = pg && await CheckpointAsync(db, ct);
        return new ResetResult(reservations, freed, Math.Round(clock.Elapsed.TotalSeconds, 1), checkpointed);
    }

    /// <summary>
    /// A checkpoint, so every measured run after a reset starts at the same point of PostgreSQL's checkpoint cycle: each
    /// pays the full-page images of the pages it first touches, and none meets a checkpoint that the runs before it set
    /// off (in the full benchmark one began every 3 minutes, by WAL volume, and spread its writes over the next runs).
    /// False where the user may not checkpoint (an external stack's database).
    /// </summary>
    private static async Task<bool> CheckpointAsync(DbConnection db, CancellationToken ct)
    {
        try
        {
            await Database.ExecuteAsync(db, "CHECKPOINT", ct);
            return true;
        }
        catch (DbException ex) when (ex.SqlState == "42501") // insufficient privilege: neither superuser nor pg_checkpoint
        {
            return false;
        }
    }

    /// <summary>Every booking and its trail gone and every seat free again, in one transaction.</summary>
    private static async Task<(long Reservations, long Freed)> ClearAsync(DbConnection db, bool pg, CancellationToken ct)
    {
        long reservations, freed;
        await using (var tx = await db.BeginTransactionAsync(ct))
        {
            reservations = await Database.ScalarAsync(db, "SELECT count(*) FROM hot_reservations", ct);
            freed = await Database.ExecuteAsync(db, "UPDATE hot_seats SET code = NULL, hold = 0, offer_id = NULL WHERE code IS NOT NULL OR hold <> 0", ct);
            // Invitation codes as issued: the bookings they admitted are gone with the rest.
            await Database.ExecuteAsync(db, "UPDATE invitation_codes SET person_hash = NULL, spent_code = NULL, spent_at = NULL WHERE spent_at IS NOT NULL", ct);
            if (pg)
            {
                // One statement, so the flush job and the SMS relay of a running stack wait for it as a whole.
                await Database.ExecuteAsync(db, $"TRUNCATE {string.Join(", ", Written)}", ct);
            }
            else
            {
                foreach (var table in Written)
                {
                    await Database.ExecuteAsync(db, $"DELETE FROM {table}", ct);
                }
            }
            await tx.CommitAsync(ct);
        }
        return (reservations, freed);
    }
}
