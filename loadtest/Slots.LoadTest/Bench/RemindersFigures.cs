using System.Globalization;
using System.Text;
using Slots.LoadTest.Data;
using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Bench;

/// <summary>
/// The reminder run's knobs, from the environment as the shell script before it read them: SLOTS_REM_SECONDS per window,
/// SLOTS_REM_RATE reminders per second (20, the product's default), SLOTS_REM_BATCH per transaction, SLOTS_REM_ROUNDS pairs
/// of windows (3), SLOTS_REM_EVERY seconds between the reminder job's runs. On SQLite (one place's day of 100,800) windows
/// of 15 s, batches of 100 and a run every second; on PostgreSQL (the benchmark's 5.1 M seats) the product's defaults,
/// batches of 500 and a run every 15 s, so windows of 30 s each hold runs of the job.
/// </summary>
internal sealed record RemindersOptions(int Seconds, int Rate, int Batch, int Rounds, int Every = 1, Provider Backend = Provider.Sqlite)
{
    public static RemindersOptions From(Func<string, string?> environment, List<string> errors, Provider backend = Provider.Sqlite)
    {
        var pg = backend == Provider.Postgres;
        return new(
            Whole(environment, "SLOTS_REM_SECONDS", pg ? 30 : 15, 1, 600, errors),
            // 1,000,000 with batches of 1,000 is the unthrottled worst case.
            Whole(environment, "SLOTS_REM_RATE", 20, 1, 10_000_000, errors),
            Whole(environment, "SLOTS_REM_BATCH", pg ? 500 : 100, 1, 100_000, errors),
            Whole(environment, "SLOTS_REM_ROUNDS", 3, 1, 100, errors),
            Whole(environment, "SLOTS_REM_EVERY", pg ? 15 : 1, 1, 3600, errors),
            backend);
    }

    /// <summary>The command that gives these knobs, for the summary.</summary>
    public string Command => string.Create(CultureInfo.InvariantCulture,
        $"SLOTS_REM_SECONDS={Seconds} SLOTS_REM_RATE={Rate} SLOTS_REM_BATCH={Batch} SLOTS_REM_ROUNDS={Rounds} SLOTS_REM_EVERY={Every} ./slots bench reminders{(Backend == Provider.Postgres ? " --backend postgres" : "")}");

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

/// <summary>
/// One window of bookings: its round, whether reminders went out, wrk's figures, the reminders queued meanwhile, and the
/// CPU per booking made in it, of the API and of the whole machine (the database, wrk and the API together).
/// </summary>
internal sealed record ReminderWindow(int Round, bool During, double P99Ms, double PerSecond, long Queued, double Seconds,
    double ApiCpuUs = 0, double MachineCpuUs = 0)
{
    /// <summary>The line the run prints after each window (the script's rounds.txt row, then the two CPU figures).</summary>
    public string Line => string.Create(CultureInfo.InvariantCulture,
        $"{Round} {(During ? "during" : "without")} {P99Ms:0.0} {PerSecond:0} {Queued} {Seconds:0.0} {ApiCpuUs:0} {MachineCpuUs:0}");
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

    /// <summary>The whole machine's busy CPU seconds so far: /proc/stat's first line less idle and iowait (ticks of 1/100 s).</summary>
    public static double MachineBusySeconds(string procStat)
    {
        var fields = procStat.Split('\n')[0].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        var ticks = fields.Skip(1).Take(8).Select(f => long.Parse(f, CultureInfo.InvariantCulture)).ToArray();
        return (ticks.Sum() - ticks[3] - ticks[4]) / 100.0;
    }

    /// <summary>book.lua's "bookings: N booked" count; null when wrk printed none.</summary>
    public static long? Booked(string wrkOutput)
    {
        foreach (var fields in Lines(wrkOutput))
        {
            if (fields is ["bookings:", var count, "booked,", ..] && long.TryParse(count, NumberStyles.None, CultureInfo.InvariantCulture, out var n))
            {
                return n;
            }
        }
        return null;
    }

    /// <summary>Tomorrow and the day after at the places (Europe/Bratislava): the reminded day and the day of the new bookings.</summary>
    public static (DateOnly Tomorrow, DateOnly Later) Days(DateTimeOffset now, TimeZoneInfo zone)
    {
        var today = DateOnly.FromDateTime(TimeZoneInfo.ConvertTime(now, zone).DateTime);
        return (today.AddDays(1), today.AddDays(2));
    }

    /// <summary>loadtest/results/reminders/summary.md: the run's settings, its totals, a row per window and the medians of each side.</summary>
    public static string Summary(RemindersOptions o, long seeded, long reminded, (long Rows, long Codes) queued, IReadOnlyList<ReminderWindow> windows,
        DateTimeOffset at, int cores, IReadOnlyList<string>? statements = null)
    {
        var inv = CultureInfo.InvariantCulture;
        var md = new StringBuilder();
        var shape = o.Backend == Provider.Postgres
            ? "PostgreSQL, 5.1 M hot seats, 1,000 places"
            : "SQLite, one place";
        md.AppendLine(inv, $"# A reminder run for a day of {seeded} bookings ({at.UtcDateTime:yyyy-MM-ddTHH:mm:ssZ}, {cores} cores, {shape}, 1 instance, Release)");
        md.AppendLine();
        md.AppendLine(inv, $"Command: `{o.Command}`: Slots:Reminders:PerSecond {o.Rate}, batches of {o.Batch}, the job every {o.Every} s.");
        md.AppendLine();
        md.AppendLine(inv, $"Reminders queued over the whole run: {reminded} of {seeded}; SMS rows (rows, distinct codes): {queued.Rows} {queued.Codes}.");
        md.AppendLine();
        md.AppendLine(inv, $"Bookings at another place, 8 connections, wrk (loadtest/reminders/book.lua), {o.Seconds} s windows after a 3 s warm-up:");
        md.AppendLine();
        md.AppendLine("| round | reminders | booking p99 (ms) | bookings/s | reminders queued in the window | CPU µs per booking, API / machine |");
        md.AppendLine("|---:|---|---:|---:|---:|---:|");
        foreach (var w in windows)
        {
            md.AppendLine(inv, $"| {w.Round} | {(w.During ? $"going out at {o.Rate}/s" : "none")} | {w.P99Ms:0.0} | {w.PerSecond:0} | {w.Queued} | {w.ApiCpuUs:0} / {w.MachineCpuUs:0} |");
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
            md.AppendLine(inv, $"- {label}: booking p99 median {LatencyStats.Median(p99):0.0} ms (range {p99.Min():0.0}-{p99.Max():0.0}), bookings/s median {LatencyStats.Median([.. side.Select(w => w.PerSecond)]):N0}, CPU µs per booking median {LatencyStats.Median([.. side.Select(w => w.ApiCpuUs)]):0} (API) / {LatencyStats.Median([.. side.Select(w => w.MachineCpuUs)]):0} (machine)");
        }
        if (statements is { Count: > 0 })
        {
            md.AppendLine();
            md.AppendLine("The reminder job's statements over the whole run (pg_stat_statements, track = all; calls, total ms, mean ms, rows, the statement):");
            md.AppendLine();
            md.AppendLine("```");
            foreach (var line in statements)
            {
                md.AppendLine(line);
            }
            md.AppendLine("```");
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
