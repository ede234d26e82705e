using Microsoft.Extensions.DependencyInjection;
using Slots.Reminders;
using Slots.Reservations;
using Slots.Storage.Ef.Reminders;

namespace Slots.Storage.Sqlite.Reminders;

/// <summary>
/// Reminders on SQLite: the same two statements as on PostgreSQL (<see cref="EfReminderStore"/>), run
/// by the one writer inside its group commit. A transaction of its own would take the file's write
/// lock beside the writer, and bookings would wait for it in SQLite's busy handler, which sleeps in
/// steps of up to 100 ms.
/// </summary>
public sealed class SqliteReminderStore(IServiceScopeFactory scopes, SqliteWriter writer) : IReminderStore
{
    private readonly EfReminderStore _forget = new(scopes);

    public async Task<int> QueueAsync(int placeId, DateOnly day, DateTimeOffset now, int batch, CancellationToken ct) =>
        await writer.WriteAsync(hot => Queue(hot, placeId, day, now.ToUnixTimeSeconds(), batch), ct);

    public Task<int> ForgetBeforeAsync(DateOnly day, CancellationToken ct) => _forget.ForgetBeforeAsync(day, ct);

    private static int Queue(SqliteHotPath hot, int placeId, DateOnly day, long now, int batch)
    {
        var id = Random.Shared.NextInt64(1, long.MaxValue);
        var taken = hot.Command("""
            INSERT INTO reminders (code, starts_at, place_id, day, queued_at, batch)
            SELECT s.code, s.starts_at, s.place_id, s.day, $now, $id
            FROM hot_seats s JOIN hot_reservations h ON h.code = s.code
            WHERE s.place_id = $place AND s.day = $day AND s.starts_at > $now
              AND NOT EXISTS (SELECT 1 FROM reminders r WHERE r.code = s.code AND r.starts_at = s.starts_at)
            ORDER BY s.start_minute, s.seat_no
            LIMIT $batch
            ON CONFLICT DO NOTHING
            """, ("$now", now), ("$id", id), ("$place", placeId), ("$day", day), ("$batch", batch)).ExecuteNonQuery();
        if (taken > 0)
        {
            hot.Command($"""
                INSERT INTO outbox (kind, code, phone, language, place_id, day, start_minute, created_at)
                SELECT {(int)ChangeKind.Reminder}, h.code, h.phone, h.language, h.place_id, h.day, h.start_minute, $now
                FROM reminders r JOIN hot_reservations h ON h.code = r.code AND h.starts_at = r.starts_at
                WHERE r.batch = $id
                ORDER BY h.start_minute, h.seat_no
                """, ("$now", now), ("$id", id)).ExecuteNonQuery();
        }
        return taken;
    }
}
