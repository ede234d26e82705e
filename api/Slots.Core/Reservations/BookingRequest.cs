namespace Slots.Reservations;

/// <summary>A reservation request after validation: normalised phone, hashed person, parsed slot.</summary>
public sealed record BookingRequest(SlotKey Slot, string Name, string Phone, string PersonHash, string Language);
