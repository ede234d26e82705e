namespace Slots.Reservations;

/// <summary>Who may see or change a reservation: the phone that made it or the person's national id.</summary>
public readonly record struct ContactProof(string? Phone, string? PersonHash);
