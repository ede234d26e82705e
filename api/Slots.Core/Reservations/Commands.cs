namespace Slots.Reservations;

/// <summary>
/// Everything the atomic reservation needs, already validated and normalised. A pair (a two-dose
/// service) has <see cref="Second"/>, the days and time its second dose may take, and that dose's own
/// <see cref="SecondCode"/>: the store seats both in one transaction or neither.
/// </summary>
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
    bool Sms = true,
    SecondDoseRange? Second = null,
    string? SecondCode = null);

public sealed record CancelCommand(string Code, ContactProof Proof, DateTimeOffset Now);

public sealed record RescheduleCommand(string Code, ContactProof Proof, SlotKey Target, DateTimeOffset Now);
