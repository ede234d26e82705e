using Slots.Eligibility;
using Slots.Testing.Campaign;

namespace Slots.Api.Tests.Eligibility;

/// <summary>
/// Core's decision against every row of <see cref="EligibilityMatrix"/>, the table the HTTP suites hold
/// each backend to; and the decisions the table cannot show (an invitation-only row stored without the flag).
/// </summary>
public sealed class EligibilityMatrixTests
{
    private static readonly DateTimeOffset Now = new(2021, 4, 20, 10, 0, 0, TimeSpan.Zero);

    public static TheoryData<string> Names => new(EligibilityMatrix.Cases.Select(c => c.Name));

    [Theory]
    [MemberData(nameof(Names))]
    public void Core_decides_as_the_matrix_says(string name)
    {
        var row = EligibilityMatrix.Named(name);

        var decision = EligibilityDecision.For(Service(row), row.BornOn, State(row.Invitation), Now);

        Assert.Equal(row.Eligible, decision.Eligible);
        Assert.Equal(row.SpendsInvitation, decision.SpendsInvitation);
        Assert.Equal(row.Reason, decision.Reason is { } reason ? Wire(reason) : null);
        Assert.Equal(row.RefusedBy, decision.RefusedBy switch
        {
            EligibilityRule.Age => "age",
            EligibilityRule.InvitationOnly => "invitation",
            _ => null,
        });
        Assert.Equal(row.OpensIn is { } opensIn ? Now + opensIn : (DateTimeOffset?)null, decision.OpensOn);
    }

    [Fact]
    public void Every_reason_and_rule_has_a_row()
    {
        // A reason added to Core without a row would go untested on every backend.
        foreach (var reason in Enum.GetValues<NotEligibleReason>())
        {
            Assert.Contains(EligibilityMatrix.Cases, c => c.Reason == Wire(reason));
        }
        foreach (var rule in Enum.GetValues<EligibilityRule>())
        {
            Assert.Contains(EligibilityMatrix.Cases, c => c.Rule == Wire(rule) && c.Eligible);
            if (rule != EligibilityRule.Everyone)
            {
                Assert.Contains(EligibilityMatrix.Cases, c => c.Rule == Wire(rule) && !c.Eligible);
            }
        }
        Assert.Contains(EligibilityMatrix.Cases, c => c.OpensIn is not null);
        Assert.Equal(EligibilityMatrix.Cases.Count, EligibilityMatrix.Cases.Select(c => c.Name).Distinct().Count());
    }

    [Fact]
    public void An_invitation_only_service_takes_codes_even_when_its_row_says_it_accepts_none()
    {
        var service = new ServiceEligibility(7, EligibilityRule.InvitationOnly, AcceptsInvitations: false, []);

        Assert.Equal(EligibilityDecision.AllowedByInvitation, EligibilityDecision.For(service, null, InvitationState.Valid, Now));
        Assert.Equal(NotEligibleReason.InvitationUsed, EligibilityDecision.For(service, null, InvitationState.Used, Now).Reason);
    }

    [Fact]
    public void A_service_without_an_eligibility_row_admits_everyone() =>
        Assert.Equal(EligibilityDecision.Allowed, EligibilityDecision.For(ServiceEligibility.Everyone(1), null, null, Now));

    [Theory]
    [InlineData(false, false, false, null, InvitationState.Unknown)]
    [InlineData(true, false, false, null, InvitationState.Valid)] // never spent
    [InlineData(true, false, true, "p1", InvitationState.Valid)] // spent by this person, who cancelled: theirs again
    [InlineData(true, false, true, "p2", InvitationState.Used)] // bound to someone else
    [InlineData(true, false, true, null, InvitationState.Used)] // erasure blanked its person: dead
    [InlineData(true, true, false, null, InvitationState.Revoked)]
    [InlineData(true, true, true, "p1", InvitationState.Revoked)] // revoking wins over the binding
    public void A_code_is_bound_to_the_first_person_who_spends_it(bool found, bool revoked, bool spent, string? boundTo, InvitationState state) =>
        Assert.Equal(state, Invitations.StateFor(found, revoked, spent, boundTo, "p1"));

    private static ServiceEligibility Service(EligibilityCase row) => new(
        5,
        Enum.GetValues<EligibilityRule>().Single(r => Wire(r) == row.Rule),
        row.AcceptsInvitations,
        [.. row.Steps.Select(s => new AgeStep((Now + s.OpensIn).ToUnixTimeSeconds(), s.BornOnOrBefore))]);

    private static InvitationState? State(string? wire) =>
        wire is null ? null : Enum.GetValues<InvitationState>().Single(s => Wire(s) == wire);

    /// <summary>An enum value as the API writes it: TooYoung → too-young.</summary>
    private static string Wire<T>(T value) where T : struct, Enum =>
        string.Concat(value.ToString().Select((c, i) => char.IsUpper(c) ? (i > 0 ? "-" : "") + char.ToLowerInvariant(c) : c.ToString()));
}
