namespace Slots.Eligibility;

/// <summary>
/// Whether a person may book a service, decided from what the hot path already holds: the cached
/// rule and steps, the birth date read from the birth number (never stored), and the state of the
/// invitation code the store found for this person. Every backend asks this one function, or
/// states the same rule in its own statement, held to <c>EligibilityMatrix</c> in the tests.
/// </summary>
/// <remarks>
/// eligible = everyone OR (age AND born on or before the cut-off) OR (invitations taken AND the code is valid).
/// The code is spent only when it is what made the person eligible: a person the age rule already
/// admits keeps their code for nothing, and an invitation to a service open to everyone is not taken.
/// </remarks>
/// <param name="Reason">Why the person was refused; null when eligible.</param>
/// <param name="SpendsInvitation">Whether the booking must spend (bind) the code, in the seat's transaction.</param>
/// <param name="OpensOn">When a refused person's age group opens, where a future step covers them; a detail of the answer, not of the decision.</param>
public readonly record struct EligibilityDecision(NotEligibleReason? Reason, bool SpendsInvitation, DateTimeOffset? OpensOn)
{
    public static readonly EligibilityDecision Allowed = new(null, false, null);
    public static readonly EligibilityDecision AllowedByInvitation = new(null, true, null);

    public bool Eligible => Reason is null;

    /// <summary>The rule that refused, as the problem's <c>rule</c> names it: age, or the invitation (<see cref="EligibilityRule.InvitationOnly"/>).</summary>
    public EligibilityRule? RefusedBy => Reason switch
    {
        null => null,
        NotEligibleReason.TooYoung or NotEligibleReason.NoBirthDate => EligibilityRule.Age,
        _ => EligibilityRule.InvitationOnly,
    };

    /// <param name="bornOn">Null when the national id is not a birth number.</param>
    /// <param name="invitation">Null when the booking brought no code.</param>
    public static EligibilityDecision For(ServiceEligibility service, DateOnly? bornOn, InvitationState? invitation, DateTimeOffset now)
    {
        if (service.Rule == EligibilityRule.Everyone)
        {
            return Allowed;
        }
        if (service.Rule == EligibilityRule.Age && bornOn is { } born && AgeSteps.CutOff(service.Steps, now) is { } cutOff && born <= cutOff)
        {
            return Allowed;
        }
        if (service.TakesInvitations && invitation == InvitationState.Valid)
        {
            return AllowedByInvitation;
        }
        // Refused. A code the person brought and that failed is what they need to hear about; else the age rule speaks.
        var opensOn = service.Rule == EligibilityRule.Age && bornOn is { } b ? AgeSteps.OpensOn(service.Steps, b, now) : null;
        var reason = (service.TakesInvitations ? invitation : null) switch
        {
            InvitationState.Unknown => NotEligibleReason.InvitationUnknown,
            InvitationState.Used => NotEligibleReason.InvitationUsed,
            InvitationState.Revoked => NotEligibleReason.InvitationRevoked,
            _ when service.Rule == EligibilityRule.InvitationOnly => NotEligibleReason.InvitationRequired,
            _ when bornOn is null => NotEligibleReason.NoBirthDate,
            _ => NotEligibleReason.TooYoung,
        };
        return new EligibilityDecision(reason, false, opensOn);
    }
}
