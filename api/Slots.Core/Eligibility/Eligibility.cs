namespace Slots.Eligibility;

/// <summary>Who may book a service. Stored as a small number: 0 everyone, 1 age, 2 invitation only.</summary>
public enum EligibilityRule
{
    /// <summary>Anybody; a service with no eligibility row has this rule, so it costs nothing.</summary>
    Everyone = 0,

    /// <summary>People born on or before the cut-off of the age step in force (<see cref="AgeSteps.CutOff"/>).</summary>
    Age = 1,

    /// <summary>Only holders of a valid invitation code.</summary>
    InvitationOnly = 2,
}

/// <summary>
/// One dated opening by age: from <paramref name="OpensAt"/> on, people born on or before
/// <paramref name="BornOnOrBefore"/> may book. Openings only widen: the cut-off in force is the
/// greatest of the steps already open.
/// </summary>
/// <param name="OpensAt">Unix seconds, as every stored instant of the schema.</param>
public sealed record AgeStep(long OpensAt, DateOnly BornOnOrBefore)
{
    public DateTimeOffset Opens => DateTimeOffset.FromUnixTimeSeconds(OpensAt);
}

/// <summary>A service's rule of who may book, with its age steps (empty unless the rule is <see cref="EligibilityRule.Age"/>).</summary>
/// <param name="AcceptsInvitations">Whether a valid invitation code qualifies a person the rule alone would refuse.</param>
public sealed record ServiceEligibility(int ServiceId, EligibilityRule Rule, bool AcceptsInvitations, IReadOnlyList<AgeStep> Steps)
{
    /// <summary>What a service without an eligibility row gets: open to everyone.</summary>
    public static ServiceEligibility Everyone(int serviceId) => new(serviceId, EligibilityRule.Everyone, false, []);

    /// <summary>
    /// The rule as a store reads it in the seat's transaction: the stored rule and the cut-off in force
    /// now (null while no step is open), so every store judges with <see cref="EligibilityDecision.For"/>.
    /// </summary>
    public static ServiceEligibility InForce(int serviceId, EligibilityRule rule, DateOnly? cutOff, bool acceptsInvitations = false) =>
        new(serviceId, rule, acceptsInvitations, cutOff is { } date ? [new AgeStep(0, date)] : []);

    /// <summary>Whether an invitation code can qualify a person here: always for invitation-only services.</summary>
    public bool TakesInvitations => Rule == EligibilityRule.InvitationOnly || AcceptsInvitations;
}

/// <summary>
/// Why a booking was refused, as the <c>not-eligible</c> problem names it (<c>too-young</c>,
/// <c>no-birth-date</c>, …). Zero is no reason, so a stored or passed value of 0 is "eligible".
/// </summary>
public enum NotEligibleReason
{
    /// <summary>Born after the cut-off in force (or no age step is open yet).</summary>
    TooYoung = 1,

    /// <summary>The national id is not a birth number, so the age rule cannot be decided.</summary>
    NoBirthDate,

    /// <summary>The service is invitation only and no code came with the booking.</summary>
    InvitationRequired,

    /// <summary>No code of this service has that hash.</summary>
    InvitationUnknown,

    /// <summary>The code is bound to another person (<see cref="InvitationState.Used"/>).</summary>
    InvitationUsed,

    /// <summary>The code's batch was revoked.</summary>
    InvitationRevoked,
}

/// <summary>
/// An invitation code as the store finds it for the person booking; null where no code came.
/// A code is bound to the first person whose booking spends it, and stays theirs: after a cancel
/// the same person may book with it again, anybody else finds it <see cref="Used"/>.
/// </summary>
public enum InvitationState
{
    /// <summary>Not revoked, and unspent or bound to this very person.</summary>
    Valid,

    /// <summary>No code of this service has that hash.</summary>
    Unknown,

    /// <summary>Bound to another person.</summary>
    Used,

    /// <summary>Its batch was revoked (whoever it was bound to).</summary>
    Revoked,
}

/// <summary>The reuse rule of <see cref="InvitationState"/>, in one place for every store that reads a code row.</summary>
public static class Invitations
{
    /// <summary>
    /// The state of a code for the person booking. <paramref name="found"/> is false when no code
    /// of the service has the hash; <paramref name="boundTo"/> is the person hash the code was spent
    /// by, null while unspent (or after erasure blanked it: then the code is dead, see <paramref name="spent"/>).
    /// </summary>
    public static InvitationState StateFor(bool found, bool revoked, bool spent, string? boundTo, string personHash) =>
        !found ? InvitationState.Unknown
        : revoked ? InvitationState.Revoked
        : !spent ? InvitationState.Valid
        : boundTo is not null && string.Equals(boundTo, personHash, StringComparison.Ordinal) ? InvitationState.Valid
        : InvitationState.Used;
}
