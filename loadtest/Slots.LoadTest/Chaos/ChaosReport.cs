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

    /// <summary>
    /// Per fault: the first 201 to a new booking sent after the fault (a 201 to one already in flight says
    /// nothing about the switch), and the longest time without any such 201 from the fault until it was
    /// healed (or until bookings came back, if later).
    /// </summary>
    public static IReadOnlyList<(Fault Fault, long FirstAfterMs, long LongestGapMs)> Gaps(IReadOnlyList<Fault> faults, IReadOnlyList<Operation> ops)
    {
        // New bookings only: a replayed key can be answered without the database.
        var booked = ops.Where(o => o.Kind == OpKind.Reserve && o.Status == 201).OrderBy(o => o.CompleteMs).ToList();
        return faults.Select(f =>
        {
            var first = booked.Where(o => o.InvokeMs >= f.StartMs).Select(o => o.CompleteMs).DefaultIfEmpty(-1).Min();
            // Until healed, or until bookings came back if that was later.
            var until = Math.Max(f.EndMs, first);
            var inside = booked.Where(o => o.CompleteMs >= f.StartMs && o.CompleteMs <= until).Select(o => o.CompleteMs).Prepend(f.StartMs).Append(until).ToList();
            var gap = inside.Zip(inside.Skip(1), (a, b) => b - a).DefaultIfEmpty(0).Max();
            return (f, first < 0 ? -1 : first - f.StartMs, gap);
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
        var switches = Gaps(faults.Where(f => Nemesis.IsPrimarySwitch(f.Kind)).ToList(), ops);
        if (switches.Count > 0)
        {
            md.AppendLine();
            md.AppendLine("PostgreSQL primary switches: from the fault to the first 201 for a request sent after it, and the longest time without a 201 until healed.");
            md.AppendLine();
            md.AppendLine("| # | fault | node | first 201 after it | longest without a 201 |");
            md.AppendLine("|---:|---|---|---:|---:|");
            foreach (var (f, first, gap) in switches)
            {
                md.AppendLine(inv, $"| {f.Number} | {f.Kind} | {f.Target} | {Seconds(first)} | {Seconds(gap)} |");
            }
            var firsts = switches.Select(s => s.FirstAfterMs).Where(x => x >= 0).Order().ToList();
            if (firsts.Count > 0)
            {
                md.AppendLine();
                md.AppendLine(inv, $"First 201 after a primary's death: median {Seconds(firsts[firsts.Count / 2])}, longest {Seconds(firsts[^1])} over {firsts.Count} switches.");
            }
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
