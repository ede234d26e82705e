namespace Slots.LoadTest.Room;

/// <summary>How an arrival's visit ended.</summary>
public enum ArrivalOutcome
{
    /// <summary>Still going when the run ended (the time limit).</summary>
    CutOff,
    Booked,

    /// <summary>Admitted, and (as planned) never booked: the admission lapses.</summary>
    Abandoned,

    /// <summary>Told no-seats-left while waiting.</summary>
    NoSeatsLeft,

    /// <summary>Admitted, and the availability showed no free seat any more.</summary>
    NoFreeSeat,

    /// <summary>Admitted, and the admission lapsed before a booking went through.</summary>
    Expired,
    Closed,

    /// <summary>A request got nothing but "wait" or no answer, 30 times over.</summary>
    NoAnswer,

    /// <summary>An answer the flow has no next step for (listed with the statuses).</summary>
    Rejected,
}

/// <summary>
/// What one arrival saw, in seconds since the run started (Stopwatch), each the first time it
/// happened; "sent" is when the request went out, "at" when its answer was read. No personal data.
/// </summary>
public sealed class ArrivalLog
{
    public long Number { get; init; }
    public bool Rejoins { get; init; }
    public bool Abandons { get; init; }

    /// <summary>The answer that gave the token (201, or 200 when the person held a place already).</summary>
    public int JoinStatus { get; set; }
    public double? JoinSentAt { get; set; }
    public double? JoinAt { get; set; }

    /// <summary>The place in line: from the join's answer, or the first status that named one (the pre-queue has none until the opening).</summary>
    public long? Position { get; set; }
    public int? RejoinStatus { get; set; }
    public long? RejoinPosition { get; set; }
    public int Polls { get; set; }

    /// <summary>When the last request that was answered "waiting" with a position went out.</summary>
    public double? LastWaitingSentAt { get; set; }
    public double? AdmittedAt { get; set; }
    public double? BookedAt { get; set; }
    public double? NoSeatsAt { get; set; }
    public double? EndedAt { get; set; }
    public ArrivalOutcome Outcome { get; set; }

    /// <summary>Why a visit ended <see cref="ArrivalOutcome.Rejected"/>: the answer's status and problem code.</summary>
    public string? Rejection { get; set; }
}
