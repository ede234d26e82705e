namespace Slots.Eligibility;

/// <summary>
/// The dated openings of a service by age, read for one instant. The steps come from the cached
/// service in any order; both questions are a pass over a handful of rows.
/// </summary>
public static class AgeSteps
{
    /// <summary>
    /// The cut-off in force at <paramref name="now"/>: the greatest <see cref="AgeStep.BornOnOrBefore"/>
    /// of the steps already open (a step opens at its instant, inclusive). Null while none is open.
    /// A later step with an earlier date does not narrow an opening already made.
    /// </summary>
    public static DateOnly? CutOff(IReadOnlyList<AgeStep> steps, DateTimeOffset now)
    {
        var at = now.ToUnixTimeSeconds();
        DateOnly? cutOff = null;
        foreach (var step in steps)
        {
            if (step.OpensAt <= at && (cutOff is null || step.BornOnOrBefore > cutOff))
            {
                cutOff = step.BornOnOrBefore;
            }
        }
        return cutOff;
    }

    /// <summary>
    /// When the group of a person born on <paramref name="bornOn"/> opens: the earliest step still
    /// to open after <paramref name="now"/> whose cut-off covers them. Null when no future step
    /// does (their turn is not announced, or it has come already). The answer shows its date in the
    /// place's zone.
    /// </summary>
    public static DateTimeOffset? OpensOn(IReadOnlyList<AgeStep> steps, DateOnly bornOn, DateTimeOffset now)
    {
        var at = now.ToUnixTimeSeconds();
        long? first = null;
        foreach (var step in steps)
        {
            if (step.OpensAt > at && bornOn <= step.BornOnOrBefore && (first is null || step.OpensAt < first))
            {
                first = step.OpensAt;
            }
        }
        return first is { } opens ? DateTimeOffset.FromUnixTimeSeconds(opens) : null;
    }
}
