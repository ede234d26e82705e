namespace Slots.Api.Contracts;

/// <summary>The person joining: their national id, read from the body (never the URL) and kept only as its keyed hash.</summary>
public sealed record JoinRequest(string? NationalId);

/// <summary>
/// Where a person in the waiting room stands. State: waiting (position and ahead are null in the
/// pre-queue, before the opening shuffles it), admitted (book until admittedUntil), no-seats-left,
/// closed, or expired (admitted, and the time to book passed). Ask again after askAgainSeconds (also
/// sent as Retry-After).
/// </summary>
public sealed record RoomStatusDto(
    string State,
    long OpeningId,
    DateTimeOffset OpensAt,
    long SeatsLeft,
    int AskAgainSeconds,
    long? Position,
    long? Ahead,
    int? EstimatedWaitSeconds,
    DateTimeOffset? AdmittedUntil);

/// <summary>A join's answer: the signed token to send with status polls and, once admitted, with the booking.</summary>
public sealed record JoinDto(string Token, RoomStatusDto Status);

/// <summary>An opening as people see it: its scope, when it opens, and the seats left in it.</summary>
public sealed record PublicOpeningDto(long Id, string? Region, IReadOnlyList<int> PlaceIds, DateTimeOffset OpensAt, string State, long SeatsLeft);

public sealed record CreateOpeningRequest(
    string? Region, int[]? PlaceIds, DateTimeOffset? OpensAt, double? AdmitPerSecond, int? AdmissionSeconds, int? AbandonAllowance);

/// <summary>An opening with its counters, for staff.</summary>
public sealed record OpeningDto(
    long Id,
    string? Region,
    IReadOnlyList<int> PlaceIds,
    DateTimeOffset OpensAt,
    double? AdmitPerSecond,
    int AdmissionSeconds,
    int AbandonAllowance,
    string State,
    DateTimeOffset CreatedAt,
    DateTimeOffset? ClosedAt,
    long Joined,
    long? PreQueue,
    long Served,
    long SeatsLeft,
    DateTimeOffset? AdvancedAt);
