namespace Slots.Reservations;

/// <summary>
/// Where a second dose may be seated: any day from <paramref name="From"/> to <paramref name="To"/>
/// (both included) at <paramref name="StartMinute"/>; the store takes the earliest free seat in it.
/// </summary>
public sealed record SecondDoseRange(DateOnly From, DateOnly To, int StartMinute)
{
    public bool Contains(DateOnly day, int startMinute) => day >= From && day <= To && startMinute == StartMinute;
}

/// <summary>
/// The second dose's range, from the service's interval (configuration, cached): decided in Core
/// before the store, because dose 1's day is fixed for the pair's life and nothing can race on it.
/// </summary>
public static class SecondDoseWindow
{
    private const int MinutesInDay = 24 * 60;

    /// <summary>
    /// Without a choice: days <paramref name="minDays"/> to <paramref name="maxDays"/> after
    /// <paramref name="day1"/> at dose 1's time. With a chosen slot: that slot alone, or null when its
    /// day lies outside the interval (the answer is <c>second-dose-outside-interval</c>). The chosen
    /// time may differ from dose 1's; only the day is bound by the interval.
    /// </summary>
    public static SecondDoseRange? For(DateOnly day1, int startMinute, int minDays, int maxDays, (DateOnly Day, int StartMinute)? chosen = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(minDays);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxDays, minDays);
        CheckMinute(startMinute, nameof(startMinute));
        if (chosen is not { } wish)
        {
            return new SecondDoseRange(day1.AddDays(minDays), day1.AddDays(maxDays), startMinute);
        }
        CheckMinute(wish.StartMinute, nameof(chosen));
        return InInterval(day1, minDays, maxDays, wish.Day) ? new SecondDoseRange(wish.Day, wish.Day, wish.StartMinute) : null;
    }

    /// <summary>Whether <paramref name="day"/> lies within the interval after <paramref name="day1"/>, both ends included: the check a move of dose 2 makes.</summary>
    public static bool InInterval(DateOnly day1, int minDays, int maxDays, DateOnly day) =>
        day >= day1.AddDays(minDays) && day <= day1.AddDays(maxDays);

    private static void CheckMinute(int minute, string name)
    {
        if (minute is < 0 or >= MinutesInDay)
        {
            throw new ArgumentOutOfRangeException(name, minute, "A start is a minute of the day, 0 to 1439.");
        }
    }
}
