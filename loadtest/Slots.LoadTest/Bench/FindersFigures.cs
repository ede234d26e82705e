using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;
using Slots.LoadTest.Data;

namespace Slots.LoadTest.Bench;

/// <summary>
/// The finders run's knobs, as the shell script before it took them: --backend (postgres, a server of its own; or sqlite),
/// SLOTS_FINDERS_SECONDS per crowd (70), SLOTS_FINDERS_PERF a perf.data path for the window with the finder (none).
/// </summary>
internal sealed record FindersOptions(Provider Backend, int Seconds, string? Perf)
{
    public static FindersOptions From(Args args, Func<string, string?> environment)
    {
        var backend = args.Enum("backend", Provider.Postgres);
        var seconds = 70;
        if (environment("SLOTS_FINDERS_SECONDS") is { Length: > 0 } text
            && (!int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out seconds) || seconds is < 1 or > 600))
        {
            args.Errors.Add($"SLOTS_FINDERS_SECONDS must be a whole number from 1 to 600; got '{text}'.");
            seconds = 70;
        }
        // perf runs from the repository's root: a relative path is taken from where the run was started, as the script took it.
        return new(backend, seconds, environment("SLOTS_FINDERS_PERF") is { Length: > 0 } perf ? Path.GetFullPath(perf) : null);
    }

    /// <summary>The provider as the seeder, the reset and the run take it.</summary>
    public string ProviderName => Backend.ToString().ToLowerInvariant();
}

/// <summary>A $bulk-publish manifest as a finder reads it: the publication's time (the next poll's _since) and its files.</summary>
internal sealed record FindersManifest(string TransactionTime, IReadOnlyList<string> Files)
{
    public static FindersManifest Parse(string json)
    {
        using var doc = JsonDocument.Parse(json);
        var root = doc.RootElement;
        var files = root.TryGetProperty("output", out var output)
            ? output.EnumerateArray().Select(f => f.GetProperty("url").GetString()!).ToList()
            : [];
        return new(root.GetProperty("transactionTime").GetString()!, files);
    }
}

/// <summary>What the finders run reads from the crowd's table, the API's log and perf's report.</summary>
internal static partial class FindersFigures
{
    /// <summary>Decided answers of a run's table: the counts of its "reserve 201" and "reserve 409" rows.</summary>
    public static long DecidedAnswers(IEnumerable<string> table)
    {
        long decided = 0;
        foreach (var line in table)
        {
            var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (Decided().IsMatch(line) && fields.Length > 2 && long.TryParse(fields[2], NumberStyles.None, CultureInfo.InvariantCulture, out var count))
            {
                decided += count;
            }
        }
        return decided;
    }

    /// <summary>The API's "Published availability …" lines, from the message on (the console logger's category line left off).</summary>
    public static IEnumerable<string> Publications(IEnumerable<string> log) =>
        log.Select(l => l.IndexOf("Published availability", StringComparison.Ordinal) is var at and >= 0 ? l[at..] : null).OfType<string>();

    /// <summary>
    /// The publication's frames in `perf report --children --sort symbol --stdio -g none`: each as its children's share
    /// and its symbol, once. They nest, so the shares are not a sum.
    /// </summary>
    public static IReadOnlyList<string> PublicationFrames(IEnumerable<string> report) =>
        [.. report.Where(l => Frame().IsMatch(l))
            .Select(l => (Share: l.Split(' ', StringSplitOptions.RemoveEmptyEntries)[0], Symbol: l[(l.IndexOf("] ", StringComparison.Ordinal) is var s and >= 0 ? s + 2 : 0)..].Trim()))
            .Select(f => $"  {f.Share} {f.Symbol}")
            .Distinct()
            .Order(StringComparer.Ordinal)];

    /// <summary>API CPU per decided answer in µs, rounded to a tenth; null when nothing was decided.</summary>
    public static double? MicrosPerAnswer(double cpuSeconds, long decided) =>
        decided == 0 ? null : Math.Round(cpuSeconds * 1_000_000 / decided, 1);

    [GeneratedRegex(@"^ *reserve (201|409) ")]
    private static partial Regex Decided();

    [GeneratedRegex(@"Publisher\+<PublishAsync>d__[0-9]+::MoveNext\(\)\[Opt|Publisher::WriteRegion|EveryPlaceAsync>d__[0-9]+::MoveNext\(\)\[Opt")]
    private static partial Regex Frame();
}
