namespace Slots.Reservations;

/// <summary>
/// A reservation request after validation: normalised phone, hashed person, parsed slot, and the
/// service the client named (null: the place's only one). The slot's service is set once resolved.
/// </summary>
public sealed record BookingRequest(SlotKey Slot, string Name, string Phone, string PersonHash, string Language, string? Service = null);
