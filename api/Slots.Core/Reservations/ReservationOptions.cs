namespace Slots.Reservations;

public sealed class ReservationOptions
{
    public const string Section = "Slots:Reservations";

    /// <summary>How long a repeat waits for the first request with its idempotency key before it gets 409 + Retry-After.</summary>
    public TimeSpan InFlightWait { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>How many free slots a slot-full answer suggests.</summary>
    public int Alternatives { get; set; } = 5;
}
