using System.ComponentModel;
using System.ComponentModel.DataAnnotations;

namespace Slots.Api.Admission;

/// <summary>The person joining: their national id, read from the body (never the URL) and kept only as its keyed hash.</summary>
public sealed record JoinRequest(
    [property: Required, StringLength(40, MinimumLength = 1), RegularExpression(Patterns.NationalId)] string? NationalId);

/// <summary>
/// Where a person in the waiting room stands. State: waiting (position and ahead are null in the
/// pre-queue, before the opening shuffles it), admitted (book until admittedUntil), no-seats-left,
/// closed, or expired (admitted, and the time to book passed). Ask again after askAgainSeconds (also
/// sent as Retry-After).
/// </summary>
public sealed record RoomStatusDto(
    [property: AllowedValues("waiting", "admitted", "no-seats-left", "closed", "expired")] string State,
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
public sealed record PublicOpeningDto(long Id, string? Region, IReadOnlyList<int> PlaceIds, DateTimeOffset OpensAt,
    [property: AllowedValues("open", "closed")] string State, long SeatsLeft);

public sealed record CreateOpeningRequest(
    [property: StringLength(100, MinimumLength = 1), RegularExpression(Patterns.Text), Description("The region the opening covers; name it or placeIds, not both.")] string? Region,
    [property: MaxLength(1000), Description("The places the opening covers (positive ids); name them or a region, not both.")] int[]? PlaceIds,
    [property: Required, Description("When the pre-queue is shuffled and admission starts (ISO 8601 with an offset).")] DateTimeOffset? OpensAt,
    [property: Range(0.01, 100_000), Description("The most people admitted per second; left out: as fast as the seats allow.")] double? AdmitPerSecond,
    [property: Range(1, 3600), Description("How long an admitted person has to book; the deployment's default when left out.")] int? AdmissionSeconds,
    [property: Range(0, 1_000_000), Description("Admissions allowed beyond the free seats, for people who give up; 0 when left out.")] int? AbandonAllowance);

/// <summary>An opening with its counters, for staff.</summary>
public sealed record OpeningDto(
    long Id,
    string? Region,
    IReadOnlyList<int> PlaceIds,
    DateTimeOffset OpensAt,
    double? AdmitPerSecond,
    int AdmissionSeconds,
    int AbandonAllowance,
    [property: AllowedValues("open", "closed")] string State,
    DateTimeOffset CreatedAt,
    DateTimeOffset? ClosedAt,
    long Joined,
    long? PreQueue,
    long Served,
    long SeatsLeft,
    DateTimeOffset? AdvancedAt);
