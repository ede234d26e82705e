namespace Slots.Reservations;

/// <summary>Free seats of one slot.</summary>
public readonly record struct SlotAvailability(SlotKey Slot, int Minutes, int Capacity, int Free, long StartsAtUnix);
