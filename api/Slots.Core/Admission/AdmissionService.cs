using Microsoft.Extensions.Options;
using Slots.Places;
using Slots.Reservations;

namespace Slots.Admission;

/// <summary>
/// The waiting room: openings, joins, status, and the gate in front of booking. Arrivals and
/// status polls are answered from signed tokens and this instance's <see cref="AdmissionView"/>;
/// the database is written once per batch of joins and once per admitted booking.
/// </summary>
public sealed class AdmissionService(
    IAdmissionStore store,
    AdmissionView view,
    JoinBatcher joins,
    AdmissionTokens tokens,
    PlaceDirectory places,
    AdmissionMetrics metrics,
    TimeProvider clock,
    IOptions<AdmissionOptions> options)
{
    public async Task<CreateAnswer> CreateAsync(NewOpening opening, CancellationToken ct)
    {
        var all = await places.AllAsync(ct);
        var covered = AdmissionView.PlacesOf(opening.Scope, all);
        covered.IntersectWith(all.Select(p => p.Id));
        if (covered.Count == 0)
        {
            return new CreateAnswer(CreateOutcome.EmptyScope);
        }
        view.Invalidate();
        var snapshot = await view.GetAsync(ct);
        if (covered.Select(snapshot.OpenAt).FirstOrDefault(o => o is not null) is { } other)
        {
            return new CreateAnswer(CreateOutcome.Overlaps, OverlapsWith: other.Opening.Id);
        }
        var created = await store.CreateAsync(opening, clock.GetUtcNow(), ct);
        view.Invalidate();
        return new CreateAnswer(CreateOutcome.Created, created);
    }

    public async Task<bool> CloseAsync(long openingId, CancellationToken ct)
    {
        var closed = await store.CloseAsync(openingId, clock.GetUtcNow(), ct);
        view.Invalidate();
        return closed;
    }

    /// <summary>An opening as stored now (not the cached view), for staff.</summary>
    public Task<Opening?> FindAsync(long openingId, CancellationToken ct) => store.FindAsync(openingId, ct);

    /// <summary>Openings open now or closed within the token lifetime, as this instance sees them.</summary>
    public async Task<IReadOnlyList<OpeningView>> OpeningsAsync(CancellationToken ct) =>
        (await view.GetAsync(ct)).Openings.Values.OrderBy(o => o.Opening.Id).ToList();

    /// <summary>
    /// Joins <paramref name="personKey"/> (the keyed hash of the person's national id) to the
    /// opening: a new ticket, or the one they have. Before the opening the ticket is in the
    /// pre-queue, whose order is shuffled at the opening; after it, tickets are positions.
    /// </summary>
    public async Task<TicketAnswer> JoinAsync(long openingId, string personKey, CancellationToken ct)
    {
        var answer = await JoinCoreAsync(openingId, personKey, ct);
        metrics.Joined(answer.Outcome);
        return answer;
    }

    private async Task<TicketAnswer> JoinCoreAsync(long openingId, string personKey, CancellationToken ct)
    {
        // From the view alone: an opening is joinable on every instance within ViewRefresh of its creation, and
        // joins to made-up ids cost no database read.
        var snapshot = await view.GetAsync(ct);
        if (!snapshot.Openings.TryGetValue(openingId, out var known))
        {
            return new TicketAnswer(JoinOutcome.UnknownOpening);
        }
        if (!known.IsOpen)
        {
            return new TicketAnswer(JoinOutcome.Closed);
        }
        if (await joins.JoinAsync(openingId, personKey) is not { } ticket)
        {
            return new TicketAnswer(JoinOutcome.Closed);
        }
        var now = clock.GetUtcNow();
        if (!known.Opening.Sealed && known.Opening.OpensAt <= now)
        {
            // The join's batch sealed the pre-queue (or saw it sealed) after this view was read: read it again, once.
            known = (await view.GetAsync(ct, notBefore: now)).Openings.GetValueOrDefault(openingId) ?? known;
        }
        var token = tokens.Issue(openingId, ticket.Ticket, now, options.Value.TokenLifetime);
        return new TicketAnswer(ticket.New ? JoinOutcome.Joined : JoinOutcome.Rejoined, token, StatusOf(known, ticket.Ticket, now));
    }

    /// <summary>Where the holder of a token stands, from this instance's view: no database read.</summary>
    public async Task<StatusAnswer> StatusAsync(string? token, CancellationToken ct)
    {
        var now = clock.GetUtcNow();
        var check = tokens.Check(token, now, out var held);
        if (check != TokenCheck.Valid)
        {
            return new StatusAnswer(check);
        }
        var snapshot = await view.GetAsync(ct);
        var status = snapshot.Openings.TryGetValue(held.OpeningId, out var opening)
            ? StatusOf(opening, held.Ticket, now)
            : new RoomStatus(RoomState.Closed, held.OpeningId, default, 0, TimeSpan.FromMinutes(1));
        metrics.Told(status.State);
        return new StatusAnswer(check, status);
    }

    /// <summary>
    /// The gate in front of a booking into <paramref name="placeId"/>. Outside an open opening it
    /// passes at the cost of a dictionary lookup. Inside one it needs an admitted token, and then
    /// records that the booking named by <paramref name="bookingKey"/> uses the admission: one
    /// booking per admission (a retry with the same key passes again). A refusal writes nothing.
    /// </summary>
    public async Task<GatePass> EnterAsync(int placeId, string? token, string bookingKey, CancellationToken ct)
    {
        var pass = await DecideAsync(placeId, token, bookingKey, ct);
        metrics.Gated(pass.Verdict);
        return pass;
    }

    private async Task<GatePass> DecideAsync(int placeId, string? token, string bookingKey, CancellationToken ct)
    {
        var snapshot = await view.GetAsync(ct);
        if (snapshot.OpenAt(placeId) is not { } opening)
        {
            return GatePass.Free;
        }
        var now = clock.GetUtcNow();
        var id = opening.Opening.Id;
        if (tokens.Check(token, now, out var held) != TokenCheck.Valid || held.OpeningId != id)
        {
            return new GatePass(GateVerdict.TokenRequired, id);
        }
        var status = StatusOf(opening, held.Ticket, now);
        switch (status.State)
        {
            case RoomState.Admitted:
                var claim = new AdmissionClaim(id, held.Ticket, status.Position!.Value, bookingKey, now);
                return await store.ClaimAsync(claim, ct)
                    ? new GatePass(GateVerdict.Admitted, id, claim, status)
                    : new GatePass(GateVerdict.AdmissionUsed, id, Status: status);
            case RoomState.Expired:
                return new GatePass(GateVerdict.AdmissionExpired, id, Status: status);
            default:
                return new GatePass(GateVerdict.NotYetAdmitted, id, Status: status);
        }
    }

    /// <summary>
    /// After a booking the gate let through. The admission stays used when the booking took a seat,
    /// and also when it may still: a request still running under the same key, or a different
    /// request sent with that key (the first one holds the admission). Otherwise it comes back.
    /// </summary>
    public Task LeaveAsync(GatePass pass, ReservationStatus outcome) =>
        LeaveAsync(pass, booked: outcome is ReservationStatus.Reserved or ReservationStatus.InProgress or ReservationStatus.KeyReused);

    /// <summary>After a move the gate let through: the admission stays used only when the reservation moved.</summary>
    public Task LeaveAsync(GatePass pass, RescheduleStatus outcome) => LeaveAsync(pass, booked: outcome == RescheduleStatus.Rescheduled);

    private async Task LeaveAsync(GatePass pass, bool booked)
    {
        if (pass.Claim is { } claim && !booked)
        {
            // Not the caller's token: the admission must come back even when the client has gone.
            await store.ReleaseAsync(claim, CancellationToken.None);
        }
    }

    /// <summary>What the holder of <paramref name="ticket"/> is told now.</summary>
    public static RoomStatus StatusOf(OpeningView view, long ticket, DateTimeOffset now)
    {
        var opening = view.Opening;
        var seats = opening.SeatsLeft;
        if (opening.State == OpeningState.Closed)
        {
            return new RoomStatus(RoomState.Closed, opening.Id, opening.OpensAt, seats, TimeSpan.FromMinutes(1));
        }
        if (opening.PositionOf(ticket) is not { } position)
        {
            // The pre-queue before the opening: every ticket in it is as good as any other.
            var untilOpening = opening.OpensAt - now;
            return new RoomStatus(RoomState.Waiting, opening.Id, opening.OpensAt, seats, Clamp(untilOpening, 1, 10),
                EstimatedWait: untilOpening > TimeSpan.Zero ? untilOpening : TimeSpan.Zero);
        }
        if (position <= opening.Served)
        {
            return view.WaveOf(position) is { } wave && wave.At + opening.AdmissionTime > now
                ? new RoomStatus(RoomState.Admitted, opening.Id, opening.OpensAt, seats, Clamp(wave.At + opening.AdmissionTime - now, 1, 30),
                    position, 0, TimeSpan.Zero, wave.At + opening.AdmissionTime)
                : new RoomStatus(RoomState.Expired, opening.Id, opening.OpensAt, seats, TimeSpan.FromMinutes(1), position, 0);
        }
        var ahead = position - opening.Served - 1;
        if (seats == 0)
        {
            // Honest: nothing to wait for now. Seats that come back are offered in queue order, so keep asking, slowly.
            return new RoomStatus(RoomState.NoSeatsLeft, opening.Id, opening.OpensAt, 0, TimeSpan.FromSeconds(5), position, ahead);
        }
        var pace = opening.AdmitPerSecond ?? ObservedPace(view, now);
        TimeSpan? wait = pace > 0 ? TimeSpan.FromSeconds((ahead + 1) / pace) : null;
        // Inventory-aware pace: the sooner the seats may run out (or the turn come), the sooner to ask
        // again, so when the last seat goes everyone still waiting hears it within a second or two,
        // while a long line with plenty of seats asks rarely.
        TimeSpan? sellOut = pace > 0 ? TimeSpan.FromSeconds(seats / pace) : null;
        var soonest = wait is { } w && sellOut is { } s ? (w < s ? w : s) : wait ?? sellOut;
        var askAgain = ahead == 0 ? TimeSpan.FromSeconds(1) : soonest is { } x ? Clamp(x / 5, 1, 10) : TimeSpan.FromSeconds(5);
        return new RoomStatus(RoomState.Waiting, opening.Id, opening.OpensAt, seats, askAgain, position, ahead, wait);
    }

    /// <summary>People admitted per second over the last minute.</summary>
    private static double ObservedPace(OpeningView view, DateTimeOffset now) =>
        view.Waves.Where(w => w.At > now.AddMinutes(-1)).Sum(w => w.Last - w.First + 1) / 60.0;

    private static TimeSpan Clamp(TimeSpan value, int minSeconds, int maxSeconds) =>
        TimeSpan.FromSeconds(Math.Clamp(Math.Ceiling(value.TotalSeconds), minSeconds, maxSeconds));
}
