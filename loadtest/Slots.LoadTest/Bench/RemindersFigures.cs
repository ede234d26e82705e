using System.Globalization;
using System.Text;

namespace Slots.LoadTest.Bench;

/// <summary>
/// The reminder run's knobs, from the environment as the shell script before it read them: SLOTS_REM_SECONDS per window (15),
/// SLOTS_REM_RATE reminders per second (20, the product's default), SLOTS_REM_BATCH per transaction (100), SLOTS_REM_ROUNDS
/// pairs of windows (3).
/// </summary>
internal sealed record RemindersOptions(int Seconds, int Rate, int Batch, int Rounds)
{
    public static RemindersOptions From(Func<string, string?> environment, List<string> errors) => new(
        Whole(environment, "SLOTS_REM_SECONDS", 15, 1, 600, errors),
        // 1,000,000 with batches of 1,000 is the unthrottled worst case.
        Whole(environment, "SLOTS_REM_RATE", 20, 1, 10_000_000, errors),
        Whole(environment, "SLOTS_REM_BATCH", 100, 1, 100_000, errors),
        Whole(environment, "SLOTS_REM_ROUNDS", 3, 1, 100, errors));

    private static int Whole(Func<string, string?> environment, string name, int fallback, int min, int max, List<string> errors)
    {
        if (environment(name) is not { Length: > 0 } text)
        {
            return fallback;
        }
        if (!int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value) || value < min || value > max)
        {
            errors.Add($"{name} must be a whole number from {min} to {max}; got '{text}'.");
            return fallback;
        }
        return value;
    }
}

/// <summary>One window of bookings: its round, whether reminders went out, wrk's figures and the reminders queued meanwhile.</summary>
internal sealed record ReminderWindow(int Round, bool During, double P99Ms, double PerSecond, long Queued, double Seconds)
{
    /// <summary>The line the run prints after each window (the script's rounds.txt row).</summary>
    public string Line => string.Create(CultureInfo.InvariantCulture,
        $"{Round} {(During ? "during" : "without")} {P99Ms:0.0} {PerSecond:0} {Queued} {Seconds:0.0}");
}

/// <summary>What wrk --latency prints, read as figures; the summary of a whole run in Markdown.</summary>
internal static class RemindersFigures
{
    /// <summary>wrk --latency's "99%" line in milliseconds (wrk writes us, ms, s or m); null when there is none.</summary>
    public static double? P99Milliseconds(string wrkOutput)
    {
        foreach (var fields in Lines(wrkOutput))
        {
            if (fields is ["99%", var value, ..])
            {
                return Milliseconds(value);
            }
        }
        return null;
    }

    /// <summary>wrk's "Requests/sec:" figure; null when there is none.</summary>
    public static double? RequestsPerSecond(string wrkOutput)
    {
        foreach (var fields in Lines(wrkOutput))
        {
            if (fields is ["Requests/sec:", var value, ..] && double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var rps))
            {
                return rps;
            }
        }
        return null;
    }

    /// <summary>The median as Python's statistics.median takes it: the mean of the two middle values of an even count.</summary>
    public static double Median(IReadOnlyList<double> values)
    {
        var sorted = values.Order().ToArray();
        var middle = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /// <summary>Tomorrow and the day after at the places (Europe/Bratislava): the reminded day and the day of the new bookings.</summary>
    public static (DateOnly Tomorrow, DateOnly Later) Days(DateTimeOffset now, TimeZoneInfo zone)
    {
        var today = DateOnly.FromDateTime(TimeZoneInfo.ConvertTime(now, zone).DateTime);
        return (today.AddDays(1), today.AddDays(2));
    }

    /// <summary>loadtest/results/reminders/summary.md: the run's settings, its totals, a row per window and the medians of each side.</summary>
    public static string Summary(RemindersOptions o, long seeded, long reminded, (long Rows, long Codes) queued, IReadOnlyList<ReminderWindow> windows,
        DateTimeOffset at, int cores)
    {
        var inv = CultureInfo.InvariantCulture;
        var md = new StringBuilder();
        md.AppendLine(inv, $"# A reminder run for a day of {seeded} bookings ({at.UtcDateTime:yyyy-MM-ddTHH:mm:ssZ}, {cores} cores, SQLite, 1 instance, Release)");
        md.AppendLine();
        md.AppendLine(inv, $"Command: `./slots bench reminders` (SLOTS_REM_SECONDS={o.Seconds} SLOTS_REM_RATE={o.Rate} SLOTS_REM_BATCH={o.Batch} SLOTS_REM_ROUNDS={o.Rounds}): Slots:Reminders:PerSecond {o.Rate}, batches of {o.Batch}.");
        md.AppendLine();
        md.AppendLine(inv, $"Reminders queued over the whole run: {reminded} of {seeded}; SMS rows (rows, distinct codes): {queued.Rows} {queued.Codes}.");
        md.AppendLine();
        md.AppendLine(inv, $"Bookings at another place, 8 connections, wrk (loadtest/reminders/book.lua), {o.Seconds} s windows after a 3 s warm-up:");
        md.AppendLine();
        md.AppendLine("| round | reminders | booking p99 (ms) | bookings/s | reminders queued in the window |");
        md.AppendLine("|---:|---|---:|---:|---:|");
        foreach (var w in windows)
        {
            md.AppendLine(inv, $"| {w.Round} | {(w.During ? $"going out at {o.Rate}/s" : "none")} | {w.P99Ms:0.0} | {w.PerSecond:0} | {w.Queued} |");
        }
        md.AppendLine();
        foreach (var (during, label) in new[] { (false, "without reminders"), (true, "while reminders go out") })
        {
            var side = windows.Where(w => w.During == during).ToList();
            if (side.Count == 0)
            {
                continue;
            }
            var p99 = side.Select(w => w.P99Ms).ToList();
            md.AppendLine(inv, $"- {label}: booking p99 median {Median(p99):0.0} ms (range {p99.Min():0.0}-{p99.Max():0.0}), bookings/s median {Median([.. side.Select(w => w.PerSecond)]):N0}");
        }
        return md.ToString();
    }

    private static double? Milliseconds(string value)
    {
        (string Unit, double Factor)[] units = [("us", 0.001), ("ms", 1), ("s", 1000), ("m", 60_000)];
        foreach (var (unit, factor) in units)
        {
            if (value.EndsWith(unit, StringComparison.Ordinal)
                && double.TryParse(value[..^unit.Length], NumberStyles.Float, CultureInfo.InvariantCulture, out var number))
            {
                return number * factor;
            }
        }
        return null;
    }

    private static IEnumerable<string[]> Lines(string text) =>
        text.Split('\n').Select(l => l.Split([' ', '\t'], StringSplitOptions.RemoveEmptyEntries));
}
