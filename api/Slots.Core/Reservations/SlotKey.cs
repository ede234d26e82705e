namespace Slots.Reservations;

/// <summary>A slot is a place, a local day and a start time (minutes after local midnight).</summary>
public readonly record struct SlotKey(int PlaceId, DateOnly Day, int StartMinute)
{
    public TimeOnly StartTime => TimeOnly.FromTimeSpan(TimeSpan.FromMinutes(StartMinute));

    public static int MinuteOf(TimeOnly time) => (time.Hour * 60) + time.Minute;

    public override string ToString() => $"{PlaceId}/{Day:yyyy-MM-dd}/{StartTime:HH\\:mm}";
}
