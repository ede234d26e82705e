namespace Slots.Admission;

public enum CreateOutcome
{
    Created = 1,

    /// <summary>The scope holds no place (a region with no places, or ids of places that do not exist).</summary>
    EmptyScope = 2,

    /// <summary>An open opening already covers one of the places.</summary>
    Overlaps = 3,
}

public sealed record CreateAnswer(CreateOutcome Outcome, Opening? Opening = null, long? OverlapsWith = null);

public enum JoinOutcome
{
    Joined = 1,

    /// <summary>The person had joined before: the same ticket, so the same position, in a fresh token.</summary>
    Rejoined = 2,

    UnknownOpening = 3,
    Closed = 4,
}

public sealed record TicketAnswer(JoinOutcome Outcome, string? Token = null, RoomStatus? Status = null);

/// <summary>The status of a token, or why the token is refused.</summary>
public sealed record StatusAnswer(TokenCheck Check, RoomStatus? Status = null);

public enum GateVerdict
{
    /// <summary>The place is in no open opening: book as without a waiting room.</summary>
    NotGated = 1,

    /// <summary>Admitted, and this booking now holds the admission.</summary>
    Admitted = 2,

    /// <summary>No token, or one that is not valid for this opening.</summary>
    TokenRequired = 3,

    /// <summary>A valid token whose turn has not come (or the scope has no seats now).</summary>
    NotYetAdmitted = 4,

    /// <summary>The admission time passed without a booking.</summary>
    AdmissionExpired = 5,

    /// <summary>Another booking already used this admission.</summary>
    AdmissionUsed = 6,
}

/// <summary>What the booking gate decided, with what the answer needs: the opening, the held admission, the status.</summary>
public sealed record GatePass(GateVerdict Verdict, long? OpeningId = null, AdmissionClaim? Claim = null, RoomStatus? Status = null)
{
    public static readonly GatePass Free = new(GateVerdict.NotGated);

    public bool Passes => Verdict is GateVerdict.NotGated or GateVerdict.Admitted;
}
