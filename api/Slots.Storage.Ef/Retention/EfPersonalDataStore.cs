using Microsoft.EntityFrameworkCore;
using Slots.Reservations;
using Slots.Retention;
using Slots.Storage.Ef.WaitingList;
using Slots.WaitingList;

namespace Slots.Storage.Ef.Retention;

/// <summary>
/// One person's data on every backend (SQLite, PostgreSQL, and SQL Server through its EF Core
/// provider), found by the national id's hash. Reading is a handful of queries; a person has a
/// few rows, and this runs on a person's request, never on the booking path.
/// </summary>
public partial class EfPersonalDataStore(SlotsDbContext db) : IPersonalDataStore
{
    public async Task<string?> OwnerAsync(string code, ContactProof proof, CancellationToken ct)
    {
        var holders = await db.HotReservations.AsNoTracking().Where(r => r.Code == code)
            .Select(r => new { r.Phone, r.PersonHash }).ToListAsync(ct);
        holders.AddRange(await db.Reservations.AsNoTracking().Where(r => r.Code == code)
            .Select(r => new { r.Phone, r.PersonHash }).ToListAsync(ct));
        holders.AddRange(await db.Changes.AsNoTracking().Where(c => c.Code == code)
            .Select(c => new { c.Phone, c.PersonHash }).ToListAsync(ct));
        // An erased row holds "" and matches no proof: a proof is never empty.
        return holders.FirstOrDefault(h => h.PersonHash != ""
            && ((proof.Phone is not null && proof.Phone == h.Phone) || (proof.PersonHash is not null && proof.PersonHash == h.PersonHash)))?.PersonHash;
    }

    public async Task<StoredPersonalData> ReadAsync(string personHash, CancellationToken ct)
    {
        var bookings = await BookingsAsync(personHash, ct);
        var entries = await EntriesAsync(personHash, ct);
        var codes = await SmsCodesAsync(bookings, entries, ct);
        var sms = new List<StoredSms>();
        var reminders = new List<StoredReminder>();
        foreach (var code in codes)
        {
            sms.AddRange((await db.Outbox.AsNoTracking().Where(o => o.Code == code).ToListAsync(ct)).Select(o => new StoredSms(
                o.Id, (ChangeKind)o.Kind, o.Code, o.Phone, o.Language, o.PlaceId, o.Day, o.StartMinute, o.Note,
                DateTimeOffset.FromUnixTimeSeconds(o.CreatedAt), o.SentAt is not null,
                o.SentAt is { } sent ? DateTimeOffset.FromUnixTimeSeconds(sent) : null)));
            reminders.AddRange((await db.Reminders.AsNoTracking().Where(r => r.Code == code).ToListAsync(ct)).Select(r => new StoredReminder(
                r.Code, r.PlaceId, r.Day, DateTimeOffset.FromUnixTimeSeconds(r.StartsAt), DateTimeOffset.FromUnixTimeSeconds(r.QueuedAt))));
        }
        sms.AddRange(await BookingRowSmsAsync(personHash, ct));
        return new StoredPersonalData(bookings, entries, [.. sms.OrderBy(s => s.Id)], [.. reminders.OrderBy(r => r.StartsAt)]);
    }

    protected SlotsDbContext Db => db;

    /// <summary>
    /// SMS a backend keeps on the booking's own hot row rather than in the outbox (none here; on
    /// PostgreSQL a new booking's confirmation).
    /// </summary>
    protected virtual Task<IReadOnlyList<StoredSms>> BookingRowSmsAsync(string personHash, CancellationToken ct) =>
        Task.FromResult<IReadOnlyList<StoredSms>>([]);

    /// <summary>
    /// The person's bookings, each once: the hot row while it is active in the window, else the disk
    /// row, else the latest change not yet flushed (a booking made and cancelled since the last flush).
    /// </summary>
    private async Task<List<StoredBooking>> BookingsAsync(string personHash, CancellationToken ct)
    {
        var hot = await db.HotReservations.AsNoTracking().Where(r => r.PersonHash == personHash).ToListAsync(ct);
        var bookings = hot.Select(r => new StoredBooking(r.Code, new SlotKey(r.PlaceId, r.Day, r.StartMinute, r.ServiceId), r.Name, r.Phone, r.Language,
            false, DateTimeOffset.FromUnixTimeSeconds(r.CreatedAt))).ToList();
        var disk = await db.Reservations.AsNoTracking().Where(r => r.PersonHash == personHash).ToListAsync(ct);
        bookings.AddRange(disk.Where(r => bookings.All(b => b.Code != r.Code)).Select(r => new StoredBooking(r.Code,
            new SlotKey(r.PlaceId, r.Day, r.StartMinute, r.ServiceId), r.Name, r.Phone, r.Language, r.CancelledAt is not null,
            DateTimeOffset.FromUnixTimeSeconds(r.CreatedAt))));
        var changes = await db.Changes.AsNoTracking().Where(c => c.PersonHash == personHash).OrderByDescending(c => c.Id).ToListAsync(ct);
        foreach (var c in changes.Where(c => bookings.All(b => b.Code != c.Code)))
        {
            // A cancel is final, whatever order its records were written in (PostgreSQL's trigger adds the
            // booking's own record as its hot row goes, after the cancel's).
            var cancelled = changes.Any(x => x.Code == c.Code && x.Kind == (int)ChangeKind.Cancelled);
            bookings.Add(new StoredBooking(c.Code, new SlotKey(c.PlaceId, c.Day, c.StartMinute, c.ServiceId), c.Name, c.Phone, c.Language,
                cancelled, DateTimeOffset.FromUnixTimeSeconds(c.CreatedAt)));
        }
        return [.. bookings.OrderBy(b => b.CreatedAt)];
    }

    private async Task<List<StoredWaitingEntry>> EntriesAsync(string personHash, CancellationToken ct)
    {
        var rows = await db.Database.SqlQuery<EntryRow>($"""
            SELECT id AS "Id", place_id AS "PlaceId", from_day AS "From", to_day AS "To", name AS "Name", phone AS "Phone",
                   language AS "Language", CAST(state AS INTEGER) AS "State", joined_at AS "JoinedAt", token AS "Token"
            FROM waitlist WHERE person_hash = {personHash}
            """).ToListAsync(ct);
        return [.. rows.OrderBy(r => r.Id).Select(r => new StoredWaitingEntry(r.Id, r.PlaceId, r.From, r.To, r.Name, r.Phone, r.Language,
            (EntryState)r.State, DateTimeOffset.FromUnixTimeSeconds(r.JoinedAt), r.Token))];
    }

    /// <summary>The outbox codes of the person's SMS: their bookings' codes and their offers' hold codes.</summary>
    private async Task<List<string>> SmsCodesAsync(List<StoredBooking> bookings, List<StoredWaitingEntry> entries, CancellationToken ct)
    {
        var codes = bookings.Select(b => b.Code).ToList();
        foreach (var entry in entries)
        {
            var offers = await db.Database.SqlQuery<long>($"""
                SELECT id AS "Value" FROM waitlist_offers WHERE entry_id = {entry.Id}
                """).ToListAsync(ct);
            codes.AddRange(offers.Select(EfWaitingListStore.MessageCode));
        }
        return codes;
    }

    private sealed record EntryRow(long Id, int PlaceId, DateOnly From, DateOnly To, string Name, string Phone, string Language, int State,
        long JoinedAt, string Token);
}
