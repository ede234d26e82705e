using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reservations;
using Slots.WaitingList;

namespace Slots.Storage.Ef.WaitingList;

/// <summary>
/// The waiting list on every backend, in LINQ over the entries (waitlist) and offers
/// (waitlist_offers). A seat the list holds back from the crowd has hold 1: kept for the line (no
/// offer_id) or held for one entry (offer_id names the offer); its code stays NULL, a booking's code
/// only. The hot path takes, and availability counts, only seats with no code and no hold.
/// Every move of a seat between free, kept, held and booked is one transaction with the entry and
/// offer rows it goes with (and the offer's SMS). The writes on hot seats are virtual: SQL Server
/// makes them in procs beside its hot path's (sql/101-105), the others in LINQ here. The claim is the
/// backend's: it books the held seat through the backend's own reservation step.
/// Every writer of an offer updates its entry first, as the claims lock it.
/// An entry waits for one service of its place (one entry per person and place): it is offered only
/// seats of that service, and leaves when its person books that service anywhere.
/// </summary>
public abstract partial class EfWaitingListStore(IServiceScopeFactory scopes) : IWaitingListStore
{
    protected const short Waiting = (short)EntryState.Waiting, Offered = (short)EntryState.Offered, Left = (short)EntryState.Left,
        Expired = (short)EntryState.Expired;

    /// <summary>An offer's states: open (its seat held), claimed, expired, withdrawn.</summary>
    protected const short OfferOpen = 1, OfferClaimed = 2, OfferExpired = 3, OfferWithdrawn = 4;

    protected IServiceScopeFactory Scopes => scopes;

    public Task<JoinAnswer> JoinAsync(JoinCommand command, CancellationToken ct) => AttemptAsync(token => JoinOnceAsync(command, token), ct);

    private async Task<JoinAnswer> JoinOnceAsync(JoinCommand c, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var now = c.Now.ToUnixTimeSeconds();
        var mine = await db.Waitlist
            .Where(w => w.PlaceId == c.PlaceId && w.PersonHash == c.PersonHash && (w.State == Waiting || w.State == Offered))
            .Select(w => w.Token).FirstOrDefaultAsync(ct);
        if (mine is not null)
        {
            return new JoinAnswer(JoinStatus.AlreadyOnList, mine, await PositionAsync(db, mine, ct));
        }
        if (await db.ActivePersons.AnyAsync(a => a.PersonHash == c.PersonHash && a.ServiceId == c.ServiceId && a.EndsAt > now, ct))
        {
            return new JoinAnswer(JoinStatus.AlreadyBooked);
        }
        if (await AnyFreeAsync(db, c.PlaceId, c.ServiceId, c.From, c.To, now, ct))
        {
            return new JoinAnswer(JoinStatus.SeatsFree);
        }
        db.Waitlist.Add(new WaitlistEntry
        {
            PlaceId = c.PlaceId,
            ServiceId = c.ServiceId,
            FromDay = c.From,
            ToDay = c.To,
            PersonHash = c.PersonHash,
            Phone = c.Phone,
            Name = c.Name,
            Language = c.Language,
            Token = c.Token,
            JoinedAt = now,
            State = Waiting,
        });
        try
        {
            await db.SaveChangesAsync(ct);
        }
        catch (DbUpdateException ex) when (ex.InnerException is { } cause && IsUniqueViolation(scope.ServiceProvider, cause))
        {
            // The same person joining twice at once: the other join came first (ux_waitlist_person).
            await tx.RollbackAsync(ct);
            return await JoinOnceAsync(c, ct);
        }
        await JoinedAsync(db, c, ct);
        var position = await PositionAsync(db, c.Token, ct);
        await tx.CommitAsync(ct);
        return new JoinAnswer(JoinStatus.Joined, c.Token, position);
    }

    public async Task<EntryView?> FindAsync(string token, DateTimeOffset now, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var entry = await db.Waitlist.AsNoTracking().Where(w => w.Token == token).SingleOrDefaultAsync(ct);
        if (entry is null)
        {
            return null;
        }
        var offers = await Offers(db, entry.Id).ToListAsync(ct);
        var open = offers.FirstOrDefault(o => o.State == OfferOpen);
        var position = entry.State is Waiting or Offered ? await PositionAsync(db, token, ct) : 0;
        return new EntryView(entry.PlaceId, entry.FromDay, entry.ToDay, (EntryState)entry.State, position,
            open is null ? null : new Offer(open.Id, new SlotKey(open.PlaceId, open.Day, open.StartMinute, open.ServiceId), open.Minutes,
                DateTimeOffset.FromUnixTimeSeconds(open.OfferedAt), DateTimeOffset.FromUnixTimeSeconds(open.ExpiresAt)),
            offers.FirstOrDefault(o => o.State == OfferClaimed)?.Code, entry.Name);
    }

    public Task<bool> LeaveAsync(string token, DateTimeOffset now, CancellationToken ct) => AttemptAsync(async attempt =>
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        await using var tx = await db.Database.BeginTransactionAsync(attempt);
        var at = now.ToUnixTimeSeconds();
        var left = await OnList(db, token)
            .ExecuteUpdateAsync(w => w.SetProperty(x => x.State, Left).SetProperty(x => x.DecidedAt, at), attempt);
        if (left == 0)
        {
            return false;
        }
        var withdrawn = await db.WaitlistOffers.Where(o => o.State == OfferOpen && db.Waitlist.Any(w => w.Id == o.EntryId && w.Token == token))
            .ExecuteUpdateAsync(o => o.SetProperty(x => x.State, OfferWithdrawn).SetProperty(x => x.DecidedAt, at), attempt);
        if (withdrawn > 0)
        {
            await KeepForLineAsync(db, OfferWithdrawn, at, attempt);
        }
        await tx.CommitAsync(attempt);
        return true;
    }, ct);

    public abstract Task<ClaimAnswer> ClaimAsync(ClaimCommand command, CancellationToken ct);

    /// <summary>One unit of work, one transaction: run once here; a backend whose writers lose races with an error retries it.</summary>
    protected virtual Task<T> AttemptAsync<T>(Func<CancellationToken, Task<T>> work, CancellationToken ct) => work(ct);

    /// <summary>True when the driver's exception says a unique index refused a row (the backend's dialect by default).</summary>
    protected virtual bool IsUniqueViolation(IServiceProvider services, Exception exception) =>
        services.GetRequiredService<EfDialect>().IsUniqueViolation(exception);

    /// <summary>A join's entry is written, in its transaction: a backend that keeps the line's days beside its hot path widens them here.</summary>
    protected virtual Task JoinedAsync(SlotsDbContext db, JoinCommand command, CancellationToken ct) => Task.CompletedTask;

    /// <summary>
    /// The seats of the offers decided at <paramref name="at"/> in <paramref name="state"/> go from their
    /// hold back to the line (offer_id cleared, hold kept), in the caller's transaction.
    /// </summary>
    protected virtual async Task KeepForLineAsync(SlotsDbContext db, short state, long at, CancellationToken ct) =>
        await db.HotSeats.Where(s => s.OfferId != null && db.WaitlistOffers.Any(o => o.State == state && o.DecidedAt == at && o.Id == s.OfferId
                && o.PlaceId == s.PlaceId && o.Day == s.Day && o.StartMinute == s.StartMinute && o.ServiceId == s.ServiceId && o.SeatNo == s.SeatNo))
            .ExecuteUpdateAsync(s => s.SetProperty(x => x.OfferId, (long?)null), ct);

    /// <summary>Whether any seat of the service on the days can be booked now: a free hot seat, or a disk day's slot with room.</summary>
    private static async Task<bool> AnyFreeAsync(SlotsDbContext db, int place, int service, DateOnly from, DateOnly to, long now, CancellationToken ct)
    {
        if (await db.HotSeats.AnyAsync(s => s.PlaceId == place && s.ServiceId == service && s.Day >= from && s.Day <= to && s.Code == null
                && s.Hold == 0 && s.StartsAt > now, ct))
        {
            return true;
        }
        var horizon = await db.Places.Where(p => p.Id == place).Select(p => p.HotUntil).SingleAsync(ct);
        var first = from < horizon ? horizon : from;
        return await db.Slots.AnyAsync(s => s.PlaceId == place && s.ServiceId == service && s.Day >= first && s.Day <= to && s.ClosedBy == null
            && s.Capacity > db.Reservations.Count(r => r.PlaceId == s.PlaceId && r.Day == s.Day && r.StartMinute == s.StartMinute
                && r.ServiceId == s.ServiceId && r.CancelledAt == null), ct);
    }

    /// <summary>An entry's offers newest first, with their slot's minutes (public so the SQL Server tests parse what it becomes).</summary>
    public static IQueryable<OfferRow> Offers(SlotsDbContext db, long entryId) =>
        from o in db.WaitlistOffers.AsNoTracking()
        join s in db.Slots on new { o.PlaceId, o.Day, o.StartMinute, o.ServiceId } equals new { s.PlaceId, s.Day, s.StartMinute, s.ServiceId }
        where o.EntryId == entryId
        orderby o.Id descending
        select new OfferRow(o.Id, o.PlaceId, o.Day, o.StartMinute, o.OfferedAt, o.ExpiresAt, o.State, o.Code, s.Minutes, o.ServiceId);

    /// <summary>The entry of the token while it is on the list, waiting or offered.</summary>
    public static IQueryable<WaitlistEntry> OnList(SlotsDbContext db, string token) =>
        db.Waitlist.Where(w => w.Token == token && (w.State == Waiting || w.State == Offered));

    /// <summary>Those at the entry's place on the list who joined no later than it: its place in line is their count.</summary>
    public static IQueryable<WaitlistEntry> Ahead(SlotsDbContext db, string token) =>
        db.Waitlist.Where(w => (w.State == Waiting || w.State == Offered)
            && db.Waitlist.Any(me => me.Token == token && me.PlaceId == w.PlaceId && w.Id <= me.Id));

    private static Task<int> PositionAsync(SlotsDbContext db, string token, CancellationToken ct) => Ahead(db, token).CountAsync(ct);

    public sealed record OfferRow(long Id, int PlaceId, DateOnly Day, int StartMinute, long OfferedAt, long ExpiresAt, short State, string? Code, int Minutes,
        int ServiceId);
}
