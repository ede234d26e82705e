using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reminders;
using Slots.Reservations;

namespace Slots.Storage.Ef.Reminders;

/// <summary>
/// Day-before reminders on SQLite and PostgreSQL: two statements in one transaction. The first
/// records a batch of the day's booked seats (a seat held for the waiting list is not a booking), read in the hot seats' key order (place, day, time,
/// seat: one range, no index of its own needed), that have no reminder for their start yet; the
/// second queues the SMS of the bookings it recorded, found by the batch's random id. The reminder
/// table's key (code, start) is what makes each booking reminded once per time it holds. A booking
/// cancelled or moved between the two statements gets no SMS from this batch (the second joins
/// the hot row at the recorded start); one moved to another time is reminded of that time in turn.
/// </summary>
public sealed class EfReminderStore(IServiceScopeFactory scopes) : IReminderStore
{
    public async Task<int> QueueAsync(int placeId, DateOnly day, DateTimeOffset now, int batch, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var at = now.ToUnixTimeSeconds();
        var id = Random.Shared.NextInt64(1, long.MaxValue);
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var taken = await db.Database.ExecuteSqlAsync($"""
            INSERT INTO reminders (code, starts_at, place_id, day, queued_at, batch)
            SELECT s.code, s.starts_at, s.place_id, s.day, {at}, {id}
            FROM hot_seats s JOIN hot_reservations h ON h.code = s.code
            WHERE s.place_id = {placeId} AND s.day = {day} AND s.starts_at > {at}
              AND NOT EXISTS (SELECT 1 FROM reminders r WHERE r.code = s.code AND r.starts_at = s.starts_at)
            ORDER BY s.start_minute, s.seat_no
            LIMIT {batch}
            ON CONFLICT DO NOTHING
            """, ct);
        if (taken > 0)
        {
            await db.Database.ExecuteSqlAsync($"""
                INSERT INTO outbox (kind, code, phone, language, place_id, day, start_minute, created_at)
                SELECT {(int)ChangeKind.Reminder}, h.code, h.phone, h.language, h.place_id, h.day, h.start_minute, {at}
                FROM reminders r JOIN hot_reservations h ON h.code = r.code AND h.starts_at = r.starts_at
                WHERE r.batch = {id}
                ORDER BY h.start_minute, h.seat_no
                """, ct);
        }
        await tx.CommitAsync(ct);
        return taken;
    }

    public async Task<int> ForgetBeforeAsync(DateOnly day, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        return await db.Database.ExecuteSqlAsync($"DELETE FROM reminders WHERE day < {day}", ct);
    }
}
