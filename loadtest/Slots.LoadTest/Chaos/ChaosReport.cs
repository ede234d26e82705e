using System.Globalization;
using System.Text;

namespace Slots.LoadTest.Chaos;

/// <summary>The soak's figures: faults by kind, operations by outcome, time to recover after each kind of fault, and the checker's verdict.</summary>
public static class ChaosReport
{
    /// <summary>Per fault kind: how many, and the longest and median time from the fault to the next 201.</summary>
    public static IReadOnlyList<(string Kind, int Count, long LongestMs, long MedianMs, int NeverRecovered)> Recovery(IReadOnlyList<Fault> faults, IReadOnlyList<Operation> ops)
    {
        var bookings = ops.Where(o => o.IsReserve && o.Status == 201).Select(o => o.CompleteMs).Order().ToArray();
        return faults.GroupBy(f => f.Kind).OrderBy(g => g.Key, StringComparer.Ordinal).Select(g =>
        {
            var gaps = g.Select(f =>
            {
                var i = Array.BinarySearch(bookings, f.StartMs);
                i = i < 0 ? ~i : i;
                return i < bookings.Length ? bookings[i] - f.StartMs : -1;
            }).ToList();
            var seen = gaps.Where(x => x >= 0).Order().ToList();
            return (g.Key, g.Count(), seen.Count > 0 ? seen[^1] : -1, seen.Count > 0 ? seen[seen.Count / 2] : -1, gaps.Count(x => x < 0));
        }).ToList();
    }

    public static string Markdown(string command, int seed, IReadOnlyList<Fault> faults, IReadOnlyList<Operation> ops, CheckReport check, TimeSpan took)
    {
        var md = new StringBuilder();
        var inv = CultureInfo.InvariantCulture;
        md.AppendLine(inv, $"Command: `{command}` (seed {seed}), {took.TotalMinutes:0.0} minutes, {faults.Count} faults, {ops.Count} operations.");
        md.AppendLine();
        md.AppendLine("| fault | injected | healed | longest time to the next 201 | median |");
        md.AppendLine("|---|---:|---:|---:|---:|");
        var recovery = Recovery(faults, ops).ToDictionary(r => r.Kind);
        foreach (var g in faults.GroupBy(f => f.Kind).OrderBy(g => g.Key, StringComparer.Ordinal))
        {
            var r = recovery[g.Key];
            md.AppendLine(inv, $"| {g.Key} | {g.Count()} | {g.Count(f => f.Healed)} | {Seconds(r.LongestMs)} | {Seconds(r.MedianMs)} |");
        }
        md.AppendLine();
        md.AppendLine("| operation | ok | definite failure | unknown |");
        md.AppendLine("|---|---:|---:|---:|");
        foreach (var g in ops.GroupBy(o => o.Kind).OrderBy(g => g.Key))
        {
            md.AppendLine(inv, $"| {g.Key.ToString().ToLowerInvariant()} | {g.Count(o => o.Outcome == Outcome.Ok)} | {g.Count(o => o.Outcome == Outcome.Fail)} | {g.Count(o => o.Outcome == Outcome.Unknown)} |");
        }
        md.AppendLine();
        md.AppendLine("| answer | count |");
        md.AppendLine("|---|---:|");
        foreach (var g in ops.GroupBy(o => o.Status is { } s ? $"{s} {o.Problem}".Trim() : o.Problem ?? "?").OrderByDescending(g => g.Count()).Take(15))
        {
            md.AppendLine(inv, $"| {g.Key} | {g.Count()} |");
        }
        md.AppendLine();
        md.AppendLine("| rule | result | counts |");
        md.AppendLine("|---|---|---|");
        foreach (var r in check.Rules)
        {
            md.AppendLine(inv, $"| {r.Name} | {(r.Passed ? "pass" : $"**FAIL** ({r.Violations.Count})")} | {string.Join(", ", r.Counts.Select(c => $"{c.Key} {c.Value}"))} |");
        }
        md.AppendLine();
        md.AppendLine(inv, $"**Lost {check.Lost}, doubled {check.Doubled}.** {(check.Passed ? "Every rule holds." : "Rules broken: " + string.Join(", ", check.Rules.Where(r => !r.Passed).Select(r => r.Name)) + ".")}");
        return md.ToString();
    }

    private static string Seconds(long ms) => ms < 0 ? "none after it" : string.Create(CultureInfo.InvariantCulture, $"{ms / 1000.0:0.0} s");
}
