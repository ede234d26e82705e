namespace Slots.Reservations;

/// <summary>
/// A reservation request after validation: normalised phone, hashed person, parsed slot, and the
/// service the client named (null: the place's only one). The slot's service is set once resolved.
/// BornOn is the birth date read from the national id when it is a birth number (null otherwise):
/// the eligibility rule's input, never stored and not part of the fingerprint (the person hash is).
/// InvitationHash is the keyed hash of the invitation code the person typed (null when none came);
/// the code itself goes no further than the request's validation.
/// </summary>
public sealed record BookingRequest(SlotKey Slot, string Name, string Phone, string PersonHash, string Language, string? Service = null,
    DateOnly? BornOn = null, string? InvitationHash = null);
