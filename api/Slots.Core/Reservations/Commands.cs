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
    DateTimeOffset Now);

public sealed record CancelCommand(string Code, ContactProof Proof, DateTimeOffset Now);

public sealed record RescheduleCommand(string Code, ContactProof Proof, SlotKey Target, DateTimeOffset Now);

/// <summary>A reservation as the person sees it when looking it up.</summary>
public sealed record ReservationDetails(
    string Code,
    SlotKey Slot,
    int Minutes,
    int SeatNo,
    string Phone,
    string PersonHash,
    string Name,
    string Language,
    DateTimeOffset CreatedAt);

/// <summary>Free seats of one slot.</summary>
public readonly record struct SlotAvailability(SlotKey Slot, int Minutes, int Capacity, int Free, long StartsAtUnix);
