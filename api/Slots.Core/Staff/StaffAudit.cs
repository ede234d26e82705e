namespace Slots.Staff;

/// <summary>
/// One staff action, kept append-only: who (the token's subject, or a machine key's name), when,
/// at which place, what, on which booking or range, and why. Never a name, phone or national id.
/// </summary>
public sealed record AuditEntry(long Id, DateTimeOffset At, string Actor, int? PlaceId, string Action, string? Target, string? Reason);

/// <summary>The actions the trail records.</summary>
public static class AuditActions
{
    public const string CheckIn = "check-in";
    public const string NoShowOverride = "no-show-override";
    public const string RosterExport = "roster-export";
    public const string PlaceCreated = "place-created";
    public const string PlaceEdited = "place-edited";
    public const string PlaceClosed = "place-closed";
    public const string PlaceReopened = "place-reopened";
    public const string SlotsGenerated = "slots-generated";
    public const string CapacityChanged = "capacity-changed";
    public const string ServiceCreated = "service-created";
    public const string ServiceUpdated = "service-updated";
    public const string ServiceEligibility = "service-eligibility";
    public const string ServiceOffered = "service-offered";
    public const string WalkIn = "walk-in";
    public const string InvitationsIssued = "invitations-issued";
    public const string InvitationsRevoked = "invitations-revoked";
    public const string BlockCancel = "block-cancel";
    public const string BlockReopened = "block-reopened";
    public const string MachineKeyCreated = "machine-key-created";
    public const string MachineKeyRevoked = "machine-key-revoked";
    public const string DemoDataCreated = "demo-data-created";
    public const string OpeningAnnounced = "opening-announced";
    public const string OpeningClosed = "opening-closed";
}
