namespace Slots.Reservations;

/// <summary>
/// A reservation request after validation: normalised phone, hashed person, parsed slot, and the
/// service the client named (null: the place's only one). The slot's service is set once resolved.
/// BornOn is the birth date read from the national id when it is a birth number (null otherwise):
/// the eligibility rule's input, never stored and not part of the fingerprint (the person hash is).
/// </summary>
public sealed record BookingRequest(SlotKey Slot, string Name, string Phone, string PersonHash, string Language, string? Service = null,
    DateOnly? BornOn = null);
