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

/// <summary>
/// A move of the booking <paramref name="Code"/>. <paramref name="Holder"/> is the code the person's
/// one-booking row is under when it is not <paramref name="Code"/>: the pair's first code when its
/// second dose moves (the row's end follows the pair's last appointment).
/// </summary>
public sealed record RescheduleCommand(string Code, ContactProof Proof, SlotKey Target, DateTimeOffset Now, string? Holder = null);
