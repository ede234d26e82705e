namespace Slots.Reservations;

/// <summary>
/// A place's day of hot seats summed up in one number by the store: it changes whenever one of the day's seats does (taken,
/// freed, held, added or cut, or its slot's time or length edited). Equal digests read at two moments mean the day's slots
/// and their free seats are as they were, but for a collision of 64-bit hashes.
/// </summary>
public readonly record struct DayDigest(int PlaceId, DateOnly Day, long Digest);

/// <summary>
/// A row of <see cref="IReservationStore.ChangedDays"/>: one slot of a place's day whose digest is not the one given, with the
/// day's digest now; or, with no slot, a day given whose seats are all gone.
/// </summary>
public readonly record struct ChangedSlot(int PlaceId, DateOnly Day, long Digest, SlotAvailability? Slot);
