using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reminders;
using Slots.Reservations;

namespace Slots.Storage.Ef.Reminders;

/// <summary>
/// Day-before reminders through EF Core, the same LINQ on PostgreSQL and SQL Server (SQLite queues
/// inside its one writer, SqliteReminderStore, and forgets here). One transaction reads a batch of the
/// day's booked seats (a seat held for the waiting list is not a booking: the join on the booking's
/// code leaves it out) in the hot seats' key order (place, day, time, seat: one range), those with no
/// reminder for their start yet, and writes each one's reminder and its SMS together. The reminder
/// table's key (code, start) is what makes each booking reminded once per time it holds; one moved to
/// another time is reminded of that time in turn. The job runs one at a time (clustered Quartz,
/// DisallowConcurrentExecution): should two runs still race, the later one's duplicate key fails its
/// whole batch, nothing half-queued, and its next run takes what is left.
/// </summary>
public sealed class EfReminderStore(IServiceScopeFactory scopes) : IReminderStore
{
    public async Task<int> QueueAsync(int placeId, DateOnly day, DateTimeOffset now, int batch, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var at = now.ToUnixTimeSeconds();
        var run = Random.Shared.NextInt64(1, long.MaxValue);
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var due = await Due(db, placeId, day, at).Take(batch).ToListAsync(ct);
        foreach (var booking in due)
        {
            db.Reminders.Add(new ReminderRecord
            {
                Code = booking.Code,
                StartsAt = booking.StartsAt,
                PlaceId = placeId,
                Day = day,
                QueuedAt = at,
                Batch = run,
            });
            db.Outbox.Add(new OutboxMessage
            {
                Kind = (int)ChangeKind.Reminder,
                Code = booking.Code,
                Phone = booking.Phone,
                Language = booking.Language,
                PlaceId = placeId,
                Day = day,
                StartMinute = booking.StartMinute,
                CreatedAt = at,
            });
        }
        await db.SaveChangesAsync(ct);
        await tx.CommitAsync(ct);
        return due.Count;
    }

    /// <summary>The place's day's bookings starting after <paramref name="at"/> with no reminder for that start, in seat order.</summary>
    public static IQueryable<DueReminder> Due(SlotsDbContext db, int placeId, DateOnly day, long at) =>
        from s in db.HotSeats.AsNoTracking()
        join h in db.HotReservations.AsNoTracking() on s.Code equals h.Code
        where s.PlaceId == placeId && s.Day == day && s.StartsAt > at
            && !db.Reminders.Any(r => r.Code == h.Code && r.StartsAt == s.StartsAt)
        orderby s.StartMinute, s.SeatNo
        select new DueReminder(h.Code, s.StartsAt, h.StartMinute, h.Phone, h.Language);

    public async Task<int> ForgetBeforeAsync(DateOnly day, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        return await db.Reminders.Where(r => r.Day < day).ExecuteDeleteAsync(ct);
    }
}

/// <summary>A booking to remind: its code, the start it holds, and what the SMS needs.</summary>
public sealed record DueReminder(string Code, long StartsAt, int StartMinute, string Phone, string Language);
