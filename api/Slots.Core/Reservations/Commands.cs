namespace Slots.Reservations;

/// <summary>Everything the atomic reservation needs, already validated and normalised.</summary>
public sealed record ReserveCommand(
    SlotKey Slot,
    string PersonHash,
    string Phone,
    string Name,
    string Language,
    string NewCode,
    string IdempotencyKey,
    string Fingerprint,
    DateTimeOffset Now,
    DateOnly? BornOn = null,
    string? InvitationHash = null,
    string? BookedBy = null,
    bool Sms = true);

public sealed record CancelCommand(string Code, ContactProof Proof, DateTimeOffset Now);

public sealed record RescheduleCommand(string Code, ContactProof Proof, SlotKey Target, DateTimeOffset Now);
