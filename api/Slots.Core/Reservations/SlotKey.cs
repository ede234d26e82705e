using Slots.Catalogue;

namespace Slots.Reservations;

/// <summary>
/// A slot is a place, a local day, a start time (minutes after local midnight) and the service
/// booked there; a key that names no service holds the default one.
/// </summary>
public readonly record struct SlotKey(int PlaceId, DateOnly Day, int StartMinute, int ServiceId = ServiceIds.Default)
{
    public TimeOnly StartTime => TimeOnly.FromTimeSpan(TimeSpan.FromMinutes(StartMinute));

    public static int MinuteOf(TimeOnly time) => (time.Hour * 60) + time.Minute;

    /// <summary>
    /// The text the idempotency fingerprint hashes. A default-service key reads as keys did before
    /// services existed, so a request in flight across a deploy keeps its fingerprint; another
    /// service appends its id, so one key reused for another service is told apart.
    /// </summary>
    public override string ToString() => ServiceId == ServiceIds.Default
        ? $"{PlaceId}/{Day:yyyy-MM-dd}/{StartTime:HH\\:mm}"
        : $"{PlaceId}/{Day:yyyy-MM-dd}/{StartTime:HH\\:mm}/{ServiceId}";
}
