namespace Slots.Window;

public sealed class WindowOptions
{
    public const string Section = "Slots:Window";

    /// <summary>How many days, from today in each place's time zone, live in the hot tables.</summary>
    public int Days { get; set; } = 30;
}
