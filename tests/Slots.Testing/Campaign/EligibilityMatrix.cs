namespace Slots.Testing.Campaign;

/// <summary>A dated opening by age, relative to the moment a case is run: negative <paramref name="OpensIn"/> has opened already.</summary>
public sealed record StepFromNow(TimeSpan OpensIn, DateOnly BornOnOrBefore);

/// <summary>
/// One row of the eligibility matrix, in the words a client sees: the rule and the invitation state
/// as the admin API and the store name them, the refusal as the <c>not-eligible</c> problem names it.
/// </summary>
/// <param name="Rule">everyone | age | invitation-only.</param>
/// <param name="BornOn">The birth date read from the national id; null when it is not a birth number.</param>
/// <param name="Invitation">Null when the booking brings no code; else the code's state for this person: valid | unknown | used | revoked.</param>
/// <param name="SpendsInvitation">Whether the booking spends the code (only when the code is what admits the person).</param>
/// <param name="Reason">The refusal's reason (too-young, no-birth-date, invitation-required, invitation-unknown, invitation-used, invitation-revoked); null when eligible.</param>
/// <param name="RefusedBy">The refusal's rule: age | invitation; null when eligible.</param>
/// <param name="OpensIn">When the person's age group opens, relative to the run's now; null when unknown or not asked.</param>
public sealed record EligibilityCase(
    string Name,
    string Rule,
    bool AcceptsInvitations,
    IReadOnlyList<StepFromNow> Steps,
    DateOnly? BornOn,
    string? Invitation,
    bool Eligible,
    bool SpendsInvitation,
    string? Reason,
    string? RefusedBy,
    TimeSpan? OpensIn)
{
    public override string ToString() => Name;
}

/// <summary>
/// The eligibility rule as one table, run against Core's decision (tests/Slots.Api.Tests/Eligibility)
/// and over HTTP on every backend, so the function and each database's statement are held to the
/// same rows. Lives here, not in a test project, so that any test project can run it; it names no
/// Core type (Slots.Stack.Tests takes Core under an alias that a reference from here would undo).
/// Steps are whole days from the run's now, so an HTTP run against the real clock keeps every row's meaning.
/// </summary>
public static class EligibilityMatrix
{
    private static readonly TimeSpan Day = TimeSpan.FromDays(1);

    /// <summary>Seventy and over opened ten days ago, sixty-five two days ago; sixty opens in three days, fifty-five in seven.</summary>
    public static readonly IReadOnlyList<StepFromNow> Ladder =
    [
        new(-10 * Day, new DateOnly(1956, 12, 31)),
        new(-2 * Day, new DateOnly(1961, 12, 31)),
        new(3 * Day, new DateOnly(1966, 12, 31)),
        new(7 * Day, new DateOnly(1971, 12, 31)),
    ];

    /// <summary>Nothing open yet: the oldest open in three days, the next group in seven.</summary>
    public static readonly IReadOnlyList<StepFromNow> NotYetOpen =
    [
        new(7 * Day, new DateOnly(1966, 12, 31)),
        new(3 * Day, new DateOnly(1956, 12, 31)),
    ];

    /// <summary>A step opened after a wider one, with an earlier date: the wider opening stands.</summary>
    public static readonly IReadOnlyList<StepFromNow> Narrower =
    [
        new(-10 * Day, new DateOnly(1961, 12, 31)),
        new(-1 * Day, new DateOnly(1950, 1, 1)),
    ];

    private static readonly DateOnly Old = new(1950, 5, 5);
    private static readonly DateOnly Young = new(1990, 1, 1);
    private static readonly DateOnly SixtyFourAtCutOff = new(1961, 12, 31);
    private static readonly DateOnly JustAfterCutOff = new(1962, 1, 1);

    public static readonly IReadOnlyList<EligibilityCase> Cases =
    [
        // Everyone: no rule, no code taken.
        Yes("everyone, no birth date", "everyone", false, [], null, null),
        Yes("everyone, a revoked code is not even looked at", "everyone", true, [], Young, "revoked"),
        Yes("everyone, a valid code is not spent", "everyone", true, [], Young, "valid"),

        // Age.
        Yes("age, born well before the cut-off", "age", false, Ladder, Old, null),
        Yes("age, born on the cut-off day", "age", false, Ladder, SixtyFourAtCutOff, null),
        No("age, born the day after the cut-off: the next step covers them", "age", false, Ladder, JustAfterCutOff, null, "too-young", "age", 3 * Day),
        No("age, a later group: the step that covers them", "age", false, Ladder, new DateOnly(1970, 6, 1), null, "too-young", "age", 7 * Day),
        No("age, no step covers them: no date", "age", false, Ladder, Young, null, "too-young", "age", null),
        No("age, not a birth number", "age", false, Ladder, null, null, "no-birth-date", "age", null),
        No("age, nothing open yet: the earliest step that covers them", "age", false, NotYetOpen, Old, null, "too-young", "age", 3 * Day),
        No("age, no steps at all", "age", false, [], Old, null, "too-young", "age", null),
        Yes("age, a later narrower step does not close a wider opening", "age", false, Narrower, new DateOnly(1960, 1, 1), null),
        No("age, a code where invitations are not taken is not looked at", "age", false, Ladder, Young, "valid", "too-young", "age", null),

        // Age, or an invitation.
        Yes("age or invitation, old enough: the code is kept", "age", true, Ladder, Old, "valid"),
        Spends("age or invitation, too young with a valid code", "age", true, Ladder, Young, "valid"),
        Spends("age or invitation, not a birth number with a valid code", "age", true, Ladder, null, "valid"),
        Yes("age or invitation, old enough with a used code: age admits", "age", true, Ladder, Old, "used"),
        No("age or invitation, too young with a used code", "age", true, Ladder, JustAfterCutOff, "used", "invitation-used", "invitation", 3 * Day),
        No("age or invitation, too young with a revoked code", "age", true, Ladder, Young, "revoked", "invitation-revoked", "invitation", null),
        No("age or invitation, not a birth number with an unknown code", "age", true, Ladder, null, "unknown", "invitation-unknown", "invitation", null),
        No("age or invitation, too young without a code", "age", true, Ladder, JustAfterCutOff, null, "too-young", "age", 3 * Day),
        No("age or invitation, not a birth number without a code", "age", true, Ladder, null, null, "no-birth-date", "age", null),

        // Invitation only.
        Spends("invitation only, a valid code", "invitation-only", true, [], Young, "valid"),
        Spends("invitation only, a valid code and no birth number", "invitation-only", true, [], null, "valid"),
        No("invitation only, no code", "invitation-only", true, [], Old, null, "invitation-required", "invitation", null),
        No("invitation only, an unknown code", "invitation-only", true, [], Old, "unknown", "invitation-unknown", "invitation", null),
        No("invitation only, a code bound to someone else", "invitation-only", true, [], Old, "used", "invitation-used", "invitation", null),
        No("invitation only, a code of a revoked batch", "invitation-only", true, [], Old, "revoked", "invitation-revoked", "invitation", null),
    ];

    public static EligibilityCase Named(string name) => Cases.Single(c => c.Name == name);

    private static EligibilityCase Yes(string name, string rule, bool invitations, IReadOnlyList<StepFromNow> steps, DateOnly? bornOn, string? invitation) =>
        new(name, rule, invitations, steps, bornOn, invitation, true, false, null, null, null);

    private static EligibilityCase Spends(string name, string rule, bool invitations, IReadOnlyList<StepFromNow> steps, DateOnly? bornOn, string? invitation) =>
        new(name, rule, invitations, steps, bornOn, invitation, true, true, null, null, null);

    private static EligibilityCase No(
        string name, string rule, bool invitations, IReadOnlyList<StepFromNow> steps, DateOnly? bornOn, string? invitation,
        string reason, string refusedBy, TimeSpan? opensIn) =>
        new(name, rule, invitations, steps, bornOn, invitation, false, false, reason, refusedBy, opensIn);
}
