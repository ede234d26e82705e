using System.Globalization;
using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Api.Staff;
using Slots.Catalogue;
using Slots.Eligibility;
using Slots.Staff;

namespace Slots.Api.Admin;

/// <summary>Who may book a service, set by admins (issue 41): everyone, or by age with dated openings.</summary>
internal static class ServiceEligibilityEndpoints
{
    public static async Task<Results<Ok<AdminServiceDto>, ProblemHttpResult, ValidationProblem>> Set(
        string code, JsonBody<SetEligibilityRequest> request, HttpContext http, ServiceCatalog catalog, StaffService staff, TimeProvider clock,
        InvitationKey invitations, CancellationToken ct)
    {
        var body = request.Value;
        var v = new Validation();
        var rule = body.Rule switch
        {
            "everyone" => EligibilityRule.Everyone,
            "age" => EligibilityRule.Age,
            "invitation" => EligibilityRule.InvitationOnly,
            _ => (EligibilityRule?)null,
        };
        if (rule is null)
        {
            v.Add("rule", "Who may book: everyone, age, or invitation.");
        }
        var accepts = rule == EligibilityRule.InvitationOnly || body.AcceptsInvitations == true;
        if (rule == EligibilityRule.Everyone && body.AcceptsInvitations == true)
        {
            v.Add("acceptsInvitations", "A service open to everyone needs no invitation: leave it out or false.");
        }
        else if (rule == EligibilityRule.InvitationOnly && body.AcceptsInvitations == false)
        {
            v.Add("acceptsInvitations", "An invitation-only service takes invitations: leave it out or true.");
        }
        else if (accepts && !invitations.Configured)
        {
            v.Add(body.AcceptsInvitations == true ? "acceptsInvitations" : "rule",
                $"Invitation codes need the campaign's key: set {InvitationOptions.Section}:HmacSecret first.");
        }
        var steps = new List<AgeStep>();
        var sent = body.Steps ?? [];
        if (rule is EligibilityRule.Everyone or EligibilityRule.InvitationOnly && sent.Length > 0)
        {
            v.Add("steps", "Only an age rule has age steps: send none.");
        }
        else if (rule == EligibilityRule.Age && sent.Length is 0 or > ServiceLimits.AgeSteps)
        {
            v.Add("steps", $"An age rule needs its openings: 1 to {ServiceLimits.AgeSteps} steps.");
        }
        var today = DateOnly.FromDateTime(clock.GetUtcNow().UtcDateTime);
        for (var i = 0; i < sent.Length && rule == EligibilityRule.Age; i++)
        {
            var step = sent[i];
            if (step is null)
            {
                v.Add($"steps[{i}]", "A step is an object with opensAt and bornOnOrBefore.");
                continue;
            }
            var at = DateTimeOffset.TryParse(step.OpensAt, CultureInfo.InvariantCulture, DateTimeStyles.None, out var opens)
                && step.OpensAt!.Contains('T', StringComparison.Ordinal) && HasOffset(step.OpensAt);
            if (!at)
            {
                v.Add($"steps[{i}].opensAt", "When the step opens: a date and time with its offset, e.g. 2026-12-01T08:00:00+01:00.");
            }
            // Not Formats.TryDay: birth dates lie long before the days slots are booked on.
            if (!DateOnly.TryParseExact(step.BornOnOrBefore, "yyyy-MM-dd", CultureInfo.InvariantCulture, DateTimeStyles.None, out var born)
                || born > today || born.Year < 1900)
            {
                v.Add($"steps[{i}].bornOnOrBefore", "The latest birth date the step admits, as yyyy-MM-dd, from 1900 on and not in the future.");
            }
            else if (at && steps.Any(s => s.OpensAt == opens.ToUnixTimeSeconds()))
            {
                v.Add($"steps[{i}].opensAt", "Two steps open at the same moment: one step per moment.");
            }
            else if (at)
            {
                steps.Add(new AgeStep(opens.ToUnixTimeSeconds(), born));
            }
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var (result, service) = await catalog.SetEligibilityAsync(code, rule!.Value, accepts, steps, ct);
        if (result == CatalogueWrite.UnknownService)
        {
            return Api.Reservations.ReservationProblems.UnknownService();
        }
        var said = ToDto(service!.Eligibility);
        await staff.RecordAsync(StaffMember.Of(http.User).Subject, null, AuditActions.ServiceEligibility,
            $"{service.Code} {said.Rule}" + (said.AcceptsInvitations ? " +invitations" : "") + string.Concat(said.Steps.Select(s => $" {s.OpensAt}<={s.BornOnOrBefore}")), null, ct);
        return TypedResults.Ok(ServiceAdminEndpoints.ToDto(service));
    }

    internal static EligibilityDto ToDto(ServiceEligibility who) => new(
        who.Rule switch
        {
            EligibilityRule.Age => "age",
            EligibilityRule.InvitationOnly => "invitation",
            _ => "everyone",
        },
        [.. who.Steps.OrderBy(s => s.OpensAt).Select(s => new AgeStepDto(
            Formats.Instant(s.Opens), Formats.Day(s.BornOnOrBefore)))],
        who.TakesInvitations);

    /// <summary>An instant names its offset (Z or ±hh:mm): a bare local time would mean the server's zone.</summary>
    private static bool HasOffset(string text) =>
        text.EndsWith('Z') || text.EndsWith('z') || (text.Length > 6 && text[^6] is '+' or '-' && text[^3] == ':');
}
