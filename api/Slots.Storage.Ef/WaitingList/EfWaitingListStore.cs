using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reservations;
using Slots.Sms;
using Slots.WaitingList;

namespace Slots.Storage.Ef.WaitingList;

/// <summary>
/// The waiting list on SQLite and PostgreSQL. A seat the list holds back from the crowd has hold 1:
/// kept for the line (no offer_id) or held for one entry (offer_id names the offer); its code stays
/// NULL, a booking's code only. The hot path takes, and availability counts, only seats with no
/// code and no hold.
/// Every move of a seat between free, kept, held and booked is one transaction with the entry and
/// offer rows it goes with (and the offer's SMS). The claim is the backend's: it books the held
/// seat through the backend's own reservation step.
/// </summary>
public abstract class EfWaitingListStore(IServiceScopeFactory scopes) : IWaitingListStore
{
    private const int Waiting = (int)EntryState.Waiting, Offered = (int)EntryState.Offered, Left = (int)EntryState.Left,
        Expired = (int)EntryState.Expired;

    protected IServiceScopeFactory Scopes => scopes;

    public async Task<JoinAnswer> JoinAsync(JoinCommand command, CancellationToken ct)
    {
        var c = command;
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var now = c.Now.ToUnixTimeSeconds();
        var mine = await db.Database.SqlQuery<string>($"""
            SELECT token AS "Value" FROM waitlist WHERE place_id = {c.PlaceId} AND person_hash = {c.PersonHash} AND state IN (1, 2)
            """).ToListAsync(ct);
        if (mine.Count > 0)
        {
            return new JoinAnswer(JoinStatus.AlreadyOnList, mine[0], await PositionAsync(db, mine[0], ct));
        }
        if (await db.ActivePersons.AnyAsync(a => a.PersonHash == c.PersonHash && a.EndsAt > now, ct))
        {
            return new JoinAnswer(JoinStatus.AlreadyBooked);
        }
        if (await AnyFreeAsync(db, c.PlaceId, c.From, c.To, now, ct))
        {
            return new JoinAnswer(JoinStatus.SeatsFree);
        }
        try
        {
            await db.Database.ExecuteSqlAsync($"""
                INSERT INTO waitlist (place_id, from_day, to_day, person_hash, phone, name, language, token, joined_at, state)
                VALUES ({c.PlaceId}, {c.From}, {c.To}, {c.PersonHash}, {c.Phone}, {c.Name}, {c.Language}, {c.Token}, {now}, {Waiting})
                """, ct);
        }
        catch (Exception ex) when (scope.ServiceProvider.GetRequiredService<EfDialect>().IsUniqueViolation(ex))
        {
            // The same person joining twice at once: the other join came first (ux_waitlist_person).
            await tx.RollbackAsync(ct);
            return await JoinAsync(command, ct);
        }
        var position = await PositionAsync(db, c.Token, ct);
        await tx.CommitAsync(ct);
        return new JoinAnswer(JoinStatus.Joined, c.Token, position);
    }

    public async Task<EntryView?> FindAsync(string token, DateTimeOffset now, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var entry = (await db.Database.SqlQuery<EntryRow>($"""
            SELECT id AS "Id", place_id AS "PlaceId", from_day AS "From", to_day AS "To", state AS "State", name AS "Name"
            FROM waitlist WHERE token = {token}
            """).ToListAsync(ct)).SingleOrDefault();
        if (entry is null)
        {
            return null;
        }
        var offers = await db.Database.SqlQuery<OfferRow>($"""
            SELECT o.id AS "Id", o.place_id AS "PlaceId", o.day AS "Day", o.start_minute AS "StartMinute", o.offered_at AS "OfferedAt",
                   o.expires_at AS "ExpiresAt", o.state AS "State", o.code AS "Code", s.minutes AS "Minutes"
            FROM waitlist_offers o JOIN slots s ON s.place_id = o.place_id AND s.day = o.day AND s.start_minute = o.start_minute
            WHERE o.entry_id = {entry.Id} ORDER BY o.id DESC
            """).ToListAsync(ct);
        var open = offers.FirstOrDefault(o => o.State == 1);
        var position = entry.State is Waiting or Offered ? await PositionAsync(db, token, ct) : 0;
        return new EntryView(entry.PlaceId, entry.From, entry.To, (EntryState)entry.State, position,
            open is null ? null : new Offer(open.Id, new SlotKey(open.PlaceId, open.Day, open.StartMinute), open.Minutes,
                DateTimeOffset.FromUnixTimeSeconds(open.OfferedAt), DateTimeOffset.FromUnixTimeSeconds(open.ExpiresAt)),
            offers.FirstOrDefault(o => o.State == 2)?.Code, entry.Name);
    }

    public async Task<bool> LeaveAsync(string token, DateTimeOffset now, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var at = now.ToUnixTimeSeconds();
        var left = await db.Database.ExecuteSqlAsync($"""
            UPDATE waitlist SET state = {Left}, decided_at = {at} WHERE token = {token} AND state IN (1, 2)
            """, ct);
        if (left == 0)
        {
            return false;
        }
        var withdrawn = await db.Database.ExecuteSqlAsync($"""
            UPDATE waitlist_offers SET state = 4, decided_at = {at}
            WHERE state = 1 AND entry_id IN (SELECT id FROM waitlist WHERE token = {token})
            """, ct);
        if (withdrawn > 0)
        {
            await KeepForLineAsync(db, 4, at, ct);
        }
        await tx.CommitAsync(ct);
        return true;
    }

    public abstract Task<ClaimAnswer> ClaimAsync(string token, string newCode, DateTimeOffset now, CancellationToken ct);

    public async Task<OfferStep> StepAsync(DateTimeOffset now, WaitingListOptions options, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var at = now.ToUnixTimeSeconds();
        int expired = 0, left = 0;
        // Looked at first without the write lock (on SQLite one for the whole file, which the bookings'
        // writer needs): most runs find no hold run out and no waiter who booked elsewhere.
        var due = (await db.Database.SqlQuery<int>($"""
            SELECT CASE WHEN EXISTS (SELECT 1 FROM waitlist_offers WHERE state = 1 AND expires_at <= {at})
                          OR EXISTS (SELECT 1 FROM waitlist w JOIN active_persons a ON a.person_hash = w.person_hash
                                     WHERE w.state IN (1, 2) AND a.ends_at > {at})
                        THEN 1 ELSE 0 END AS "Value"
            """).ToListAsync(ct)).Single() == 1;
        if (due)
        {
            await using var tx = await db.Database.BeginTransactionAsync(ct);
            // Holds that ran out: their seats go back to the line, their people off it.
            expired = await db.Database.ExecuteSqlAsync($"""
                UPDATE waitlist_offers SET state = 3, decided_at = {at} WHERE state = 1 AND expires_at <= {at}
                """, ct);
            if (expired > 0)
            {
                await db.Database.ExecuteSqlAsync($"""
                    UPDATE waitlist SET state = {Expired}, decided_at = {at}
                    WHERE state = {Offered} AND id IN (SELECT entry_id FROM waitlist_offers WHERE state = 3 AND decided_at = {at})
                    """, ct);
                await KeepForLineAsync(db, 3, at, ct);
            }
            // People who booked somewhere else leave the list; a seat held for them goes on.
            var withdrawn = await db.Database.ExecuteSqlAsync($"""
                UPDATE waitlist_offers SET state = 4, decided_at = {at}
                WHERE state = 1 AND entry_id IN (SELECT w.id FROM waitlist w JOIN active_persons a ON a.person_hash = w.person_hash
                                                 WHERE w.state = {Offered} AND a.ends_at > {at})
                """, ct);
            if (withdrawn > 0)
            {
                await KeepForLineAsync(db, 4, at, ct);
            }
            left = await db.Database.ExecuteSqlAsync($"""
                UPDATE waitlist SET state = {Left}, decided_at = {at}
                WHERE state IN (1, 2) AND person_hash IN (SELECT person_hash FROM active_persons WHERE ends_at > {at})
                """, ct);
            await tx.CommitAsync(ct);
        }

        var offered = 0;
        var released = 0;
        var lastCall = at + (long)options.LastCall.TotalSeconds;
        var places = await db.Database.SqlQuery<int>($"""
            SELECT DISTINCT place_id AS "Value" FROM waitlist WHERE state IN (1, 2) OR decided_at > {at - 3600}
            """).ToListAsync(ct);
        foreach (var place in places)
        {
            var line = await db.Database.SqlQuery<Waiter>($"""
                SELECT id AS "Id", from_day AS "From", to_day AS "To", phone AS "Phone", language AS "Language", token AS "Token"
                FROM waitlist WHERE place_id = {place} AND state = {Waiting} ORDER BY id
                """).ToListAsync(ct);
            var seats = await db.Database.SqlQuery<SeatRow>($"""
                SELECT day AS "Day", start_minute AS "StartMinute", seat_no AS "SeatNo", starts_at AS "StartsAt", hold AS "Hold"
                FROM hot_seats
                WHERE place_id = {place} AND code IS NULL AND offer_id IS NULL AND starts_at > {lastCall}
                ORDER BY day, start_minute, seat_no
                """).ToListAsync(ct);
            var plan = OfferPlan.For(line, seats.ConvertAll(s => s.Open), now, options);
            offered += await plan.WriteOffersAsync(options.OffersPerRun - offered, o => OfferAsync(db, place, o, at, ct));
            foreach (var seat in plan.Releases)
            {
                released += await db.Database.ExecuteSqlAsync($"""
                    UPDATE hot_seats SET hold = 0
                    WHERE place_id = {place} AND day = {seat.Day} AND start_minute = {seat.StartMinute} AND seat_no = {seat.SeatNo}
                      AND hold = 1 AND offer_id IS NULL
                    """, ct);
            }
        }
        var waiting = (await db.Database.SqlQuery<long>($"""
            SELECT COUNT(*) AS "Value" FROM waitlist WHERE state IN (1, 2)
            """).ToListAsync(ct)).Single();
        return new OfferStep(offered, expired, left, released, waiting);
    }

    /// <summary>One offer: the seat held, the entry offered, the SMS queued, or nothing when a racer got there first.</summary>
    private static async Task<bool> OfferAsync(SlotsDbContext db, int place, PlannedOffer offer, long at, CancellationToken ct)
    {
        var (entry, seat, hold) = (offer.Waiter, offer.Seat, offer.Hold);
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var expires = at + (long)hold.TotalSeconds;
        var id = (await db.Database.SqlQuery<long>($"""
            INSERT INTO waitlist_offers (entry_id, place_id, day, start_minute, seat_no, offered_at, expires_at, state)
            VALUES ({entry.Id}, {place}, {seat.Day}, {seat.StartMinute}, {seat.SeatNo}, {at}, {expires}, 1)
            RETURNING id AS "Value"
            """).ToListAsync(ct)).Single();
        var held = await db.Database.ExecuteSqlAsync($"""
            UPDATE hot_seats SET hold = 1, offer_id = {id}
            WHERE place_id = {place} AND day = {seat.Day} AND start_minute = {seat.StartMinute} AND seat_no = {seat.SeatNo}
              AND code IS NULL AND offer_id IS NULL
            """, ct);
        var mine = await db.Database.ExecuteSqlAsync($"UPDATE waitlist SET state = {Offered} WHERE id = {entry.Id} AND state = {Waiting}", ct);
        if (held != 1 || mine != 1)
        {
            await tx.RollbackAsync(ct);
            return false;
        }
        var note = SeatOffered.Note((int)Math.Round(hold.TotalMinutes), entry.Token);
        await db.Database.ExecuteSqlAsync($"""
            INSERT INTO outbox (kind, code, phone, language, place_id, day, start_minute, created_at, note)
            VALUES ({(int)ChangeKind.SeatOffered}, {MessageCode(id)}, {entry.Phone}, {entry.Language}, {place}, {seat.Day}, {seat.StartMinute}, {at}, {note})
            """, ct);
        await tx.CommitAsync(ct);
        return true;
    }

    /// <summary>
    /// The code an offer's SMS carries in the outbox (its message's reference, as a booking's SMS
    /// carries the booking's code): never a seat's code, which is a booking's or NULL.
    /// </summary>
    public static string MessageCode(long offerId) => "~h" + offerId.ToString(System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>The seats of the offers decided now in the given state go from their hold back to the line (offer_id cleared).</summary>
    private static Task<int> KeepForLineAsync(SlotsDbContext db, int state, long at, CancellationToken ct) =>
        db.Database.ExecuteSqlAsync($"""
            UPDATE hot_seats SET offer_id = NULL
            FROM waitlist_offers o
            WHERE o.state = {state} AND o.decided_at = {at}
              AND hot_seats.place_id = o.place_id AND hot_seats.day = o.day AND hot_seats.start_minute = o.start_minute
              AND hot_seats.seat_no = o.seat_no AND hot_seats.offer_id = o.id
            """, ct);

    /// <summary>Whether any seat of the days can be booked now: a free hot seat, or a disk day's slot with room.</summary>
    private static async Task<bool> AnyFreeAsync(SlotsDbContext db, int place, DateOnly from, DateOnly to, long now, CancellationToken ct)
    {
        if (await db.HotSeats.AnyAsync(s => s.PlaceId == place && s.Day >= from && s.Day <= to && s.Code == null && s.Hold == 0 && s.StartsAt > now, ct))
        {
            return true;
        }
        var horizon = await db.Places.Where(p => p.Id == place).Select(p => p.HotUntil).SingleAsync(ct);
        var first = from < horizon ? horizon : from;
        return await db.Slots.AnyAsync(s => s.PlaceId == place && s.Day >= first && s.Day <= to && s.ClosedBy == null
            && s.Capacity > db.Reservations.Count(r => r.PlaceId == s.PlaceId && r.Day == s.Day && r.StartMinute == s.StartMinute && r.CancelledAt == null), ct);
    }

    /// <summary>The entry's place in line: 1 + those waiting or offered at the place who joined before it.</summary>
    private static async Task<int> PositionAsync(SlotsDbContext db, string token, CancellationToken ct) =>
        (await db.Database.SqlQuery<int>($"""
            SELECT COUNT(*) AS "Value" FROM waitlist w JOIN waitlist me ON me.token = {token}
            WHERE w.place_id = me.place_id AND w.state IN (1, 2) AND w.id <= me.id
            """).ToListAsync(ct)).Single();

    private sealed record EntryRow(long Id, int PlaceId, DateOnly From, DateOnly To, int State, string Name);

    private sealed record OfferRow(long Id, int PlaceId, DateOnly Day, int StartMinute, long OfferedAt, long ExpiresAt, int State, string? Code, int Minutes);

    private sealed record SeatRow(DateOnly Day, int StartMinute, int SeatNo, long StartsAt, short Hold)
    {
        public OpenSeat Open => new(Day, StartMinute, SeatNo, StartsAt, KeptForLine: Hold == 1);
    }
}
