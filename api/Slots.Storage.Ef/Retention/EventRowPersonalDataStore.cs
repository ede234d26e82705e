using Microsoft.EntityFrameworkCore;
using Slots.Reservations;
using Slots.Retention;

namespace Slots.Storage.Ef.Retention;

/// <summary>
/// The shared store, plus the confirmation SMS a new booking carries on its own hot row (event_id,
/// sms_pending) until a cancel or eviction moves it to the outbox: PostgreSQL's and SQLite's
/// reservation events (100_reservation_events.sql and 190_reservation_events.sql).
/// </summary>
public sealed class EventRowPersonalDataStore(SlotsDbContext db) : EfPersonalDataStore(db)
{
    protected override async Task<IReadOnlyList<StoredSms>> BookingRowSmsAsync(string personHash, CancellationToken ct)
    {
        var rows = await Db.Database.SqlQuery<ConfirmationRow>($"""
            SELECT event_id AS "Id", code AS "Code", phone AS "Phone", language AS "Language", place_id AS "PlaceId", day AS "Day",
                   start_minute AS "StartMinute", created_at AS "CreatedAt", sms_pending AS "Pending"
            FROM hot_reservations WHERE person_hash = {personHash} AND event_id IS NOT NULL
            """).ToListAsync(ct);
        return [.. rows.Select(r => new StoredSms(r.Id, ChangeKind.Reserved, r.Code, r.Phone, r.Language, r.PlaceId, r.Day, r.StartMinute, null,
            DateTimeOffset.FromUnixTimeSeconds(r.CreatedAt), !r.Pending))];
    }

    private sealed record ConfirmationRow(long Id, string Code, string Phone, string Language, int PlaceId, DateOnly Day, int StartMinute,
        long CreatedAt, bool Pending);
}
