using Microsoft.EntityFrameworkCore;
using Slots.Retention;
using Slots.WaitingList;

namespace Slots.Storage.Ef.Retention;

/// <summary>
/// The erasure on every backend (SQLite, PostgreSQL, and SQL Server through its EF Core provider):
/// one set-based statement per table, each touching only rows that still hold data. Rows stay
/// (a booking's place, day, time and state feed the statistics); what named the person goes.
/// Statements run one by one, not in one transaction: each is idempotent, and a national
/// campaign's day can be hundreds of thousands of rows that should not wait on one another.
/// </summary>
public sealed class EfPersonalDataEraser(SlotsDbContext db) : IPersonalDataEraser
{
    private const int Waiting = (int)EntryState.Waiting, Offered = (int)EntryState.Offered, Expired = (int)EntryState.Expired;

    public async Task<ErasedRows> EraseAsync(DateOnly daysBefore, DateTimeOffset endedBefore, DateTimeOffset now, CancellationToken ct)
    {
        var reservations = await db.Reservations
            .Where(r => r.Day < daysBefore && (r.Phone != "" || r.Name != "" || r.PersonHash != ""))
            .ExecuteUpdateAsync(s => s.SetProperty(r => r.Phone, "").SetProperty(r => r.Name, "").SetProperty(r => r.PersonHash, ""), ct);
        // The hot window holds only today and later, so this finds rows only when eviction lags far behind.
        reservations += await db.HotReservations
            .Where(r => r.Day < daysBefore && (r.Phone != "" || r.Name != "" || r.PersonHash != ""))
            .ExecuteUpdateAsync(s => s.SetProperty(r => r.Phone, "").SetProperty(r => r.Name, "").SetProperty(r => r.PersonHash, ""), ct);
        reservations += await db.Changes
            .Where(c => c.Day < daysBefore && (c.Phone != "" || c.Name != "" || c.PersonHash != ""))
            .ExecuteUpdateAsync(s => s.SetProperty(c => c.Phone, "").SetProperty(c => c.Name, "").SetProperty(c => c.PersonHash, ""), ct);
        var outbox = await db.Outbox
            .Where(o => o.Day < daysBefore && (o.Phone != "" || o.Note != null))
            .ExecuteUpdateAsync(s => s.SetProperty(o => o.Phone, "").SetProperty(o => o.Note, (string?)null), ct);
        // A person who erased their data had their queued SMS keep its phone until sent (the cancel
        // they were promised, EfPersonalDataStore): once sent, it goes here, its booking holding no one.
        outbox += await db.Outbox
            .Where(o => o.Day >= daysBefore && o.SentAt != null && o.Phone != ""
                && (db.Reservations.Any(r => r.Code == o.Code && r.PersonHash == "" && r.Phone == "")
                    || db.Changes.Any(c => c.Code == o.Code && c.PersonHash == "" && c.Phone == "")))
            .ExecuteUpdateAsync(s => s.SetProperty(o => o.Phone, "").SetProperty(o => o.Note, (string?)null), ct);

        var ended = endedBefore.ToUnixTimeSeconds();
        var persons = await db.ActivePersons.Where(a => a.EndsAt < ended).ExecuteDeleteAsync(ct);
        // An invitation code forgets its person with the booking it last made: spent, bound to no one, dead.
        persons += await db.InvitationCodes
            .Where(i => i.PersonHash != null && db.Reservations.Any(r => r.Code == i.SpentCode && r.Day < daysBefore))
            .ExecuteUpdateAsync(s => s.SetProperty(i => i.PersonHash, (string?)null), ct);

        // An entry still waiting for days long gone is over: it expires first, so that blanking the
        // hash cannot meet another live entry's (ux_waitlist_person covers waiting and offered ones).
        var at = now.ToUnixTimeSeconds();
        await db.Database.ExecuteSqlAsync($"""
            UPDATE waitlist SET state = {Expired}, decided_at = {at} WHERE state = {Waiting} AND to_day < {daysBefore}
            """, ct);
        var waitingList = await db.Database.ExecuteSqlAsync($"""
            UPDATE waitlist SET phone = '', name = '', person_hash = ''
            WHERE to_day < {daysBefore} AND state NOT IN ({Waiting}, {Offered}) AND (phone <> '' OR name <> '' OR person_hash <> '')
            """, ct);
        // A join's hash is its key, so the join goes; the opening keeps its count of tickets issued.
        var joins = await db.Database.ExecuteSqlAsync($"""
            DELETE FROM waiting_room_joins
            WHERE opening_id IN (SELECT id FROM waiting_room_openings WHERE closed_at IS NOT NULL AND closed_at < {ended})
            """, ct);
        return new ErasedRows(reservations, outbox, waitingList, persons, joins);
    }
}
