using Microsoft.EntityFrameworkCore;
using Slots.Eligibility;
using Slots.Reservations;

namespace Slots.Storage.Ef;

/// <summary>Who may book, on the cold path: the rule and the invitation code read and spent in the booking's transaction.</summary>
public sealed partial class EfColdReservationStore
{
    /// <summary>
    /// Whether the service's rule admits the person, read in the seat's transaction: the stored rule,
    /// the cut-off in force and the invitation code the booking brought.
    /// </summary>
    private static async Task<EligibilityDecision> DecideAsync(SlotsDbContext db, ReserveCommand c, long now, CancellationToken ct)
    {
        var service = c.Slot.ServiceId;
        var rule = await db.ServiceEligibility.AsNoTracking().Where(e => e.ServiceId == service).SingleOrDefaultAsync(ct);
        if (rule is null)
        {
            return EligibilityDecision.Allowed;
        }
        var cutOff = await db.ServiceAgeSteps.AsNoTracking().Where(a => a.ServiceId == service && a.OpensAt <= now)
            .MaxAsync(a => (DateOnly?)a.BornOnOrBefore, ct);
        InvitationState? invitation = null;
        if (c.InvitationHash is { } hash)
        {
            var code = await db.InvitationCodes.AsNoTracking().Where(i => i.Hash == hash && i.ServiceId == service).SingleOrDefaultAsync(ct);
            invitation = Invitations.StateFor(code is not null, code?.Revoked == true, code?.SpentAt is not null, code?.PersonHash, c.PersonHash);
        }
        return EligibilityDecision.For(ServiceEligibility.InForce(service, (EligibilityRule)rule.Rule, cutOff, rule.AcceptsInvitations),
            c.BornOn, invitation, c.Now);
    }

    /// <summary>
    /// Spends the booking's invitation code in its transaction: binds it to the person, unless another
    /// person's booking bound it first (a racer that committed since the read) or its batch was revoked meanwhile.
    /// </summary>
    private static async Task<bool> SpendInvitationAsync(SlotsDbContext db, ReserveCommand c, long now, CancellationToken ct)
    {
        var hash = c.InvitationHash!;
        var person = c.PersonHash;
        return await db.InvitationCodes
            .Where(i => i.Hash == hash && i.ServiceId == c.Slot.ServiceId && !i.Revoked && (i.SpentAt == null || i.PersonHash == person))
            .ExecuteUpdateAsync(s => s.SetProperty(i => i.PersonHash, person).SetProperty(i => i.SpentCode, c.NewCode)
                .SetProperty(i => i.SpentAt, i => i.SpentAt ?? now), ct) == 1;
    }
}
