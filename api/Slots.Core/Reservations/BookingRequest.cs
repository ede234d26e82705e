namespace Slots.Reservations;

/// <summary>
/// A reservation request after validation: normalised phone, hashed person, parsed slot, and the
/// service the client named (null: the place's only one). The slot's service is set once resolved.
/// BornOn is the birth date read from the national id when it is a birth number (null otherwise):
/// the eligibility rule's input, never stored and not part of the fingerprint (the person hash is).
/// InvitationHash is the keyed hash of the invitation code the person typed (null when none came);
/// the code itself goes no further than the request's validation.
/// BookedBy is the staff member who booked on the person's behalf (a walk-in or a phone call; null
/// for the person's own booking), written to the audit trail in the booking's transaction; Sms false
/// books without the confirmation SMS (only staff may choose that). SecondChoice is the second dose's
/// slot the person chose (null: the earliest free one at the first dose's time).
/// </summary>
public sealed record BookingRequest(SlotKey Slot, string Name, string Phone, string PersonHash, string Language, string? Service = null,
    DateOnly? BornOn = null, string? InvitationHash = null, string? BookedBy = null, bool Sms = true,
    (DateOnly Day, int StartMinute)? SecondChoice = null);
