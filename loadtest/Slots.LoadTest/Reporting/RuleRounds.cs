using System.Globalization;
using System.Text;
using System.Text.Json;
using Slots.LoadTest.Data;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Reporting;

/// <summary>
/// What the campaign's rules cost the real path (issue 41), from rounds of one benchmark run: each round runs the real path,
/// the age rule, invitation codes and pairs on the same seeded supply, and every other round runs them in reverse order, so a
/// machine that warms or slows over the run weighs on both sides alike. A rule's figure is the median over the rounds of its
/// booked/s against the real path's in the same round; one pair of runs alone moved by as much as the rule costs.
/// </summary>
public static class RuleRounds
{
    public const string RealPath = "reserve";
    public const string AgeRule = "reserve-age";
    public const string Invitations = "reserve-invite";
    public const string Pairs = "reserve-pair";

    private static readonly string[] InOrder = [RealPath, AgeRule, Invitations, Pairs];

    /// <summary>The scenarios of round <paramref name="round"/> (from 1) as they run. Round 1's real path is the throughput
    /// runs' own, just before it; the even rounds run backwards.</summary>
    public static IReadOnlyList<string> Order(int round) =>
        round == 1 ? InOrder[1..] : round % 2 == 0 ? [.. InOrder.Reverse()] : InOrder;

    /// <summary>A round's result file, relative to the results folder: round 1 writes the benchmark's own scenario files.</summary>
    public static string File(string scenario, int round) =>
        round == 1 ? $"{scenario}.json" : Path.Combine("rounds", $"{scenario}-{round}.json");

    /// <summary>The rounds' reports found in <paramref name="folder"/>: one entry per round whose real path ran, with the rule
    /// scenarios that ran in it.</summary>
    public static IReadOnlyList<IReadOnlyDictionary<string, RunReport>> Read(string folder)
    {
        var rounds = new List<IReadOnlyDictionary<string, RunReport>>();
        for (var round = 1; ; round++)
        {
            var found = new Dictionary<string, RunReport>();
            foreach (var scenario in InOrder)
            {
                var path = Path.Combine(folder, File(scenario, round));
                if (System.IO.File.Exists(path) && JsonSerializer.Deserialize<RunReport>(System.IO.File.ReadAllText(path), RunReport.Json) is { } report)
                {
                    found[scenario] = report;
                }
            }
            if (!found.ContainsKey(RealPath))
            {
                return rounds;
            }
            rounds.Add(found);
        }
    }

    /// <summary>Each round's booked/s of <paramref name="rule"/> over the same round's real path (rounds without either left out).</summary>
    public static IReadOnlyList<double> Ratios(IReadOnlyList<IReadOnlyDictionary<string, RunReport>> rounds, string rule) =>
        [.. rounds.Where(r => r.TryGetValue(rule, out _) && r[RealPath].GoodputPerSecond > 0)
            .Select(r => r[rule].GoodputPerSecond / r[RealPath].GoodputPerSecond)];

    /// <summary>The summary's lines on the rules: the age rule's and the codes' cost and the pairs' ratio as medians over the
    /// rounds with each round's figure, and, with more than one round, a table of the rounds.</summary>
    public static string Markdown(IReadOnlyList<IReadOnlyDictionary<string, RunReport>> rounds)
    {
        var inv = CultureInfo.InvariantCulture;
        var md = new StringBuilder();
        var over = rounds.Count == 1 ? "" : string.Create(inv, $" (median of {rounds.Count} rounds, the order reversed every other round; each round: ");
        string Each(IReadOnlyList<double> values, Func<double, string> say) =>
            rounds.Count == 1 ? "" : over + string.Join(", ", values.Select(say)) + ")";
        string Cost(double ratio) => (1 - ratio).ToString("P1", inv);
        string Times(double ratio) => ratio.ToString("0.00", inv) + "×";

        if (Ratios(rounds, AgeRule) is { Count: > 0 } aged)
        {
            md.AppendLine(inv, $"- who may book (an age rule admitting the whole crowd, decided in the seat's operation): " +
                $"**{Cost(LatencyStats.Median(aged))}** fewer bookings/s than the real path without a rule{Each(aged, Cost)} (target ≤ 10 %)");
        }
        if (Ratios(rounds, Invitations) is { Count: > 0 } invited)
        {
            md.AppendLine(inv, $"- invitation codes (an invitation-only service, every person bringing a code of its own, read and spent in the seat's operation): " +
                $"**{Cost(LatencyStats.Median(invited))}** fewer bookings/s than the real path without a rule{Each(invited, Cost)} (target ≤ 10 %)");
        }
        if (Ratios(rounds, Pairs) is { Count: > 0 } paired)
        {
            var audits = rounds.Select(r => r.GetValueOrDefault(Pairs)?.Audit).OfType<AuditResult>().ToList();
            var audit = audits.Count == 0 ? "" : string.Create(inv,
                $"; the audit{(audits.Count == 1 ? "" : $"s of {audits.Count} rounds")}: {audits.Sum(a => a.Pairs):N0} pairs, {audits.Sum(a => a.HalfPairs)} half pairs, " +
                $"{audits.Sum(a => a.UnpairedBookings)} unpaired bookings, {audits.Sum(a => a.PersonsWithTwoActive)} persons with two");
            md.AppendLine(inv, $"- both doses in one booking (the same crowd on a two-dose service, second doses in the interval's hot and disk days): " +
                $"**{Times(LatencyStats.Median(paired))}** the real path's bookings/s as pairs/s{Each(paired, Times)} (target ≥ 0.5×){audit}");
        }
        if (rounds.Count > 1)
        {
            md.AppendLine();
            md.AppendLine("| round (order) | real path booked/s | age rule | invitation codes | pairs/s | audits |");
            md.AppendLine("|---|---:|---:|---:|---:|---|");
            for (var i = 0; i < rounds.Count; i++)
            {
                var round = rounds[i];
                string Of(string scenario) => round.TryGetValue(scenario, out var r) ? r.GoodputPerSecond.ToString("N1", inv) : "—";
                var failed = round.Where(r => r.Value.Audit is { Passed: false }).Select(r => r.Key).ToList();
                var order = i == 0 ? string.Join(", ", (string[])[RealPath, .. Order(1)]) : string.Join(", ", Order(i + 1));
                md.AppendLine(inv, $"| {i + 1} ({order}) | {Of(RealPath)} | {Of(AgeRule)} | {Of(Invitations)} | {Of(Pairs)} | " +
                    $"{(failed.Count == 0 ? "passed" : "**FAILED**: " + string.Join(", ", failed))} |");
            }
            md.AppendLine();
        }
        return md.ToString();
    }
}
