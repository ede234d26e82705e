namespace Slots.Reservations;

/// <summary>
/// The answer of a reservation. <see cref="Replayed"/> is true when the answer came from an
/// earlier request with the same idempotency key. <see cref="Code"/> is the new code when
/// reserved; for <see cref="ReservationStatus.AlreadyBooked"/> it is the existing code, and only
/// when the request came from the same contact phone that made it. <see cref="Minutes"/> is the
/// reserved slot's length when the store's write already knew it (the 201 shows it), else 0.
/// <see cref="Detail"/> is the refusal's reason for <see cref="ReservationStatus.NotEligible"/>
/// (a <see cref="Eligibility.NotEligibleReason"/>), else 0. <see cref="Second"/> is where a pair's second dose was
/// seated, when the store's write knew it (a fresh pair; a replay reads it back).
/// </summary>
public readonly record struct ReserveResult(ReservationStatus Status, string? Code, bool Replayed = false, int Minutes = 0, int Detail = 0,
    SecondDose? Second = null)
{
    public static ReserveResult Reserved(string code, int minutes = 0) => new(ReservationStatus.Reserved, code, Minutes: minutes);
}
