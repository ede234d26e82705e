using System.Globalization;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reservations;
using Slots.Sms;
using Slots.WaitingList;

namespace Slots.Storage.Ef.WaitingList;

/// <summary>The offer step: settle expired and withdrawn holds, then write each place's <see cref="OfferPlan"/>.</summary>
public abstract partial class EfWaitingListStore
{
    public async Task<OfferStep> StepAsync(DateTimeOffset now, WaitingListOptions options, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var at = now.ToUnixTimeSeconds();
        // Looked at first without the write lock (on SQLite one for the whole file, which the bookings'
        // writer needs): most runs find no hold run out and no waiter who booked elsewhere.
        var due = await db.WaitlistOffers.AnyAsync(o => o.State == OfferOpen && o.ExpiresAt <= at, ct)
            || await BookedElsewhere(db, at).AnyAsync(ct);
        var (expired, left) = due ? await AttemptAsync(attempt => SettleAsync(db, at, attempt), ct) : (0, 0);

        var offered = 0;
        var released = 0;
        var lastCall = at + (long)options.LastCall.TotalSeconds;
        var places = await db.Waitlist.Where(w => w.State == Waiting || w.State == Offered || w.DecidedAt > at - 3600)
            .Select(w => w.PlaceId).Distinct().ToListAsync(ct);
        foreach (var place in places)
        {
            await LineReadAsync(db, place, ct);
            var line = await Line(db, place).ToListAsync(ct);
            var seats = await OpenSeats(db, place, lastCall).ToListAsync(ct);
            var plan = OfferPlan.For(line, seats, now, options);
            offered += await plan.WriteOffersAsync(options.OffersPerRun - offered,
                o => AttemptAsync(attempt => OfferAsync(db, place, o, at, attempt), ct));
            foreach (var seat in plan.Releases)
            {
                released += await AttemptAsync(attempt => ReleaseAsync(db, place, seat, attempt), ct);
            }
        }
        var waiting = await db.Waitlist.LongCountAsync(w => w.State == Waiting || w.State == Offered, ct);
        return new OfferStep(offered, expired, left, released, waiting);
    }

    /// <summary>
    /// One transaction: holds that ran out expire (their entries first, as a claim locks them), people
    /// who booked somewhere else leave the list (their open offers withdrawn), and the seats held for
    /// either go back to the line. Answers the offers expired and the entries left.
    /// </summary>
    private async Task<(int Expired, int Left)> SettleAsync(SlotsDbContext db, long at, CancellationToken ct)
    {
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        await ExpiringEntries(db, at).ExecuteUpdateAsync(w => w.SetProperty(x => x.State, Expired).SetProperty(x => x.DecidedAt, at), ct);
        var expired = await OpenOffersOf(db, Expired, at)
            .ExecuteUpdateAsync(o => o.SetProperty(x => x.State, OfferExpired).SetProperty(x => x.DecidedAt, at), ct);
        var left = await BookedElsewhere(db, at)
            .ExecuteUpdateAsync(w => w.SetProperty(x => x.State, Left).SetProperty(x => x.DecidedAt, at), ct);
        var withdrawn = await OpenOffersOf(db, Left, at)
            .ExecuteUpdateAsync(o => o.SetProperty(x => x.State, OfferWithdrawn).SetProperty(x => x.DecidedAt, at), ct);
        if (expired > 0)
        {
            await KeepForLineAsync(db, OfferExpired, at, ct);
        }
        if (withdrawn > 0)
        {
            await KeepForLineAsync(db, OfferWithdrawn, at, ct);
        }
        await tx.CommitAsync(ct);
        return (expired, left);
    }

    /// <summary>Offered entries whose open offer ran out: they expire.</summary>
    public static IQueryable<WaitlistEntry> ExpiringEntries(SlotsDbContext db, long at) =>
        db.Waitlist.Where(w => w.State == Offered && db.WaitlistOffers.Any(o => o.EntryId == w.Id && o.State == OfferOpen && o.ExpiresAt <= at));

    /// <summary>The open offers of the entries moved to <paramref name="entryState"/> at <paramref name="at"/>: they close with them.</summary>
    public static IQueryable<WaitlistOfferRecord> OpenOffersOf(SlotsDbContext db, short entryState, long at) =>
        db.WaitlistOffers.Where(o => o.State == OfferOpen && db.Waitlist.Any(w => w.Id == o.EntryId && w.State == entryState && w.DecidedAt == at));

    /// <summary>Entries on the list whose person holds a booking of the entry's service now: they leave it.</summary>
    public static IQueryable<WaitlistEntry> BookedElsewhere(SlotsDbContext db, long at) =>
        db.Waitlist.Where(w => (w.State == Waiting || w.State == Offered)
            && db.ActivePersons.Any(a => a.PersonHash == w.PersonHash && a.ServiceId == w.ServiceId && a.EndsAt > at));

    /// <summary>A place's entries waiting for an offer, first in line first.</summary>
    public static IQueryable<Waiter> Line(SlotsDbContext db, int place) =>
        db.Waitlist.AsNoTracking().Where(w => w.PlaceId == place && w.State == Waiting).OrderBy(w => w.Id)
            .Select(w => new Waiter(w.Id, w.FromDay, w.ToDay, w.Phone, w.Language, w.Token, w.ServiceId));

    /// <summary>A place's seats that could be offered: free or kept for the line, not starting before the last call.</summary>
    public static IQueryable<OpenSeat> OpenSeats(SlotsDbContext db, int place, long lastCall) =>
        db.HotSeats.AsNoTracking().Where(s => s.PlaceId == place && s.Code == null && s.OfferId == null && s.StartsAt > lastCall)
            .OrderBy(s => s.Day).ThenBy(s => s.StartMinute).ThenBy(s => s.ServiceId).ThenBy(s => s.SeatNo)
            .Select(s => new OpenSeat(s.Day, s.StartMinute, s.SeatNo, s.StartsAt, s.Hold == 1, s.ServiceId));

    /// <summary>The place's line is about to be read by the step: a backend that keeps its days beside the hot path sets them here.</summary>
    protected virtual Task LineReadAsync(SlotsDbContext db, int place, CancellationToken ct) => Task.CompletedTask;

    /// <summary>
    /// One offer, one transaction: the entry moves from waiting to offered (first, as a claim locks it),
    /// the offer is written, the seat held for it (hold 1, offer_id) if still free or kept, and the SMS
    /// queued under the offer's message code; or nothing, when the entry or the seat went meanwhile.
    /// </summary>
    protected virtual async Task<bool> OfferAsync(SlotsDbContext db, int place, PlannedOffer offer, long at, CancellationToken ct)
    {
        var (entry, seat, hold) = (offer.Waiter, offer.Seat, offer.Hold);
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        try
        {
            var mine = await db.Waitlist.Where(w => w.Id == entry.Id && w.State == Waiting)
                .ExecuteUpdateAsync(w => w.SetProperty(x => x.State, Offered), ct);
            if (mine != 1)
            {
                await tx.RollbackAsync(ct);
                return false;
            }
            var row = new WaitlistOfferRecord
            {
                EntryId = entry.Id,
                PlaceId = place,
                Day = seat.Day,
                StartMinute = seat.StartMinute,
                ServiceId = seat.ServiceId,
                SeatNo = seat.SeatNo,
                OfferedAt = at,
                ExpiresAt = at + (long)hold.TotalSeconds,
                State = OfferOpen,
            };
            db.WaitlistOffers.Add(row);
            await db.SaveChangesAsync(ct);
            var held = await db.HotSeats.Where(s => s.PlaceId == place && s.Day == seat.Day && s.StartMinute == seat.StartMinute
                    && s.ServiceId == seat.ServiceId && s.SeatNo == seat.SeatNo && s.Code == null && s.OfferId == null)
                .ExecuteUpdateAsync(s => s.SetProperty(x => x.Hold, (short)1).SetProperty(x => x.OfferId, (long?)row.Id), ct);
            if (held != 1)
            {
                await tx.RollbackAsync(ct);
                return false;
            }
            db.Outbox.Add(new OutboxMessage
            {
                Kind = (int)ChangeKind.SeatOffered,
                Code = MessageCode(row.Id),
                Phone = entry.Phone,
                Language = entry.Language,
                PlaceId = place,
                Day = seat.Day,
                StartMinute = seat.StartMinute,
                CreatedAt = at,
                Note = SeatOffered.Note((int)Math.Round(hold.TotalMinutes), entry.Token),
            });
            await db.SaveChangesAsync(ct);
            await tx.CommitAsync(ct);
            return true;
        }
        finally
        {
            db.ChangeTracker.Clear();
        }
    }

    /// <summary>A seat kept for a line that no longer wants it is anybody's again.</summary>
    protected virtual Task<int> ReleaseAsync(SlotsDbContext db, int place, OpenSeat seat, CancellationToken ct) =>
        db.HotSeats.Where(s => s.PlaceId == place && s.Day == seat.Day && s.StartMinute == seat.StartMinute && s.ServiceId == seat.ServiceId
                && s.SeatNo == seat.SeatNo && s.Hold == 1 && s.OfferId == null)
            .ExecuteUpdateAsync(s => s.SetProperty(x => x.Hold, (short)0), ct);

    /// <summary>
    /// The code an offer's SMS carries in the outbox (its message's reference, as a booking's SMS
    /// carries the booking's code): never a seat's code, which is a booking's or NULL.
    /// </summary>
    public static string MessageCode(long offerId) => "~h" + offerId.ToString(CultureInfo.InvariantCulture);
}
