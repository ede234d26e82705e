using Slots.Catalogue;
using Slots.Reservations;

namespace Slots.WaitingList;

/// <summary>Where an entry of a place's waiting list stands.</summary>
public enum EntryState
{
    Waiting = 1,
    /// <summary>A seat is held for the entry until the offer expires.</summary>
    Offered = 2,
    /// <summary>The entry's person booked the offered seat.</summary>
    Booked = 3,
    /// <summary>Left the list: by link, or by booking somewhere else.</summary>
    Left = 4,
    /// <summary>Let the hold expire: the seat went on to the next in line.</summary>
    Expired = 5,
}

/// <summary>
/// Someone joining the list: a place, the service wanted there, the days they could come, who they are
/// (validated, the national id as its keyed hash).
/// </summary>
public sealed record JoinCommand(int PlaceId, DateOnly From, DateOnly To, string PersonHash, string Phone, string Name, string Language, string Token,
    DateTimeOffset Now, int ServiceId = ServiceIds.Default);

public enum JoinStatus
{
    Joined = 1,
    /// <summary>The person was on the list already: the answer is that entry.</summary>
    AlreadyOnList = 2,
    /// <summary>Seats are free on those days: book one instead.</summary>
    SeatsFree = 3,
    /// <summary>The person holds an active booking of the service: one booking per service at a time.</summary>
    AlreadyBooked = 4,
}

/// <summary>The answer to a join: the entry's token and place in line when on the list.</summary>
public sealed record JoinAnswer(JoinStatus Status, string? Token = null, int Position = 0);

/// <summary>A seat held for an entry, until <see cref="ExpiresAt"/>.</summary>
public sealed record Offer(long Id, SlotKey Slot, int Minutes, DateTimeOffset OfferedAt, DateTimeOffset ExpiresAt);

/// <summary>An entry as its person sees it: place, days, state, position among those waiting, and the open offer.</summary>
public sealed record EntryView(int PlaceId, DateOnly From, DateOnly To, EntryState State, int Position, Offer? Offer, string? BookedCode, string Name);

public enum ClaimStatus
{
    Claimed = 1,
    /// <summary>No open offer: never offered, or claimed, left or expired already.</summary>
    NoOffer = 2,
    Expired = 3,
    /// <summary>The person holds another booking now.</summary>
    AlreadyBooked = 4,
    /// <summary>A two-dose service: no seat for the second dose in its interval. Nothing is written; the seat stays held.</summary>
    SecondDoseFull = 5,
}

/// <summary>
/// A claim of the seat held for an entry. At a two-dose service <see cref="Second"/> is the second
/// dose's range, decided in Core from <see cref="Offered"/> (the open offer's slot when the claim
/// began), and <see cref="SecondCode"/> its code: the store books both seats or neither, and answers
/// <see cref="ClaimStatus.NoOffer"/> when the open offer is no longer for <see cref="Offered"/>.
/// </summary>
public sealed record ClaimCommand(string Token, string NewCode, DateTimeOffset Now, SlotKey? Offered = null, SecondDoseRange? Second = null,
    string? SecondCode = null);

/// <summary>What a claim did: the booking it made (a claim again answers the same booking), with a pair's second dose.</summary>
public sealed record ClaimAnswer(ClaimStatus Status, string? Code = null, SlotKey? Slot = null, int Minutes = 0, SecondDose? Second = null);

/// <summary>What one step of the offer job did.</summary>
public sealed record OfferStep(int Offered, int Expired, int Left, int Released, long Waiting = 0)
{
    public int Total => Offered + Expired + Left + Released;
}

/// <summary>Slots:WaitingList.</summary>
public sealed class WaitingListOptions
{
    public const string Section = "Slots:WaitingList";

    /// <summary>How long an offered seat is held for its person.</summary>
    public TimeSpan Hold { get; set; } = TimeSpan.FromMinutes(15);

    /// <summary>Seats starting within this time are offered with <see cref="BackfillHold"/> (same-day backfill).</summary>
    public TimeSpan BackfillWithin { get; set; } = TimeSpan.FromHours(3);

    /// <summary>The shorter hold of a seat starting soon.</summary>
    public TimeSpan BackfillHold { get; set; } = TimeSpan.FromMinutes(5);

    /// <summary>A seat starting sooner than this is not offered any more (nobody could get there).</summary>
    public TimeSpan LastCall { get; set; } = TimeSpan.FromMinutes(20);

    /// <summary>How often the offer job runs.</summary>
    public TimeSpan Every { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>Entries offered a seat per run, at most.</summary>
    public int OffersPerRun { get; set; } = 200;

    /// <summary>The longest range of days one entry may ask for.</summary>
    public int MaxDays { get; set; } = 31;

    /// <summary>The hold for a seat starting at <paramref name="startsAt"/>, offered at <paramref name="now"/>.</summary>
    public TimeSpan HoldFor(DateTimeOffset startsAt, DateTimeOffset now) =>
        startsAt - now <= BackfillWithin ? BackfillHold : Hold;
}

/// <summary>Per-backend storage of the waiting list; every change of a seat and its entry in one transaction.</summary>
public interface IWaitingListStore
{
    Task<JoinAnswer> JoinAsync(JoinCommand command, CancellationToken ct);

    Task<EntryView?> FindAsync(string token, DateTimeOffset now, CancellationToken ct);

    /// <summary>Takes the entry off the list; a seat held for it goes on to the next in line. False when it was not on the list.</summary>
    Task<bool> LeaveAsync(string token, DateTimeOffset now, CancellationToken ct);

    /// <summary>
    /// Books the held seat for the entry's person (the command's new code if it is a new booking), and
    /// at a two-dose service the second dose in its range, in one step with the hold's end.
    /// </summary>
    Task<ClaimAnswer> ClaimAsync(ClaimCommand command, CancellationToken ct);

    /// <summary>
    /// One step of the line: expired holds go on, entries whose person booked elsewhere leave, up to
    /// <see cref="WaitingListOptions.OffersPerRun"/> entries in line order are offered the first
    /// seat of their days kept for the line or free (each offer, its hold and its SMS in one
    /// transaction), and seats kept for a line that no longer wants them are given back.
    /// </summary>
    Task<OfferStep> StepAsync(DateTimeOffset now, WaitingListOptions options, CancellationToken ct);
}
