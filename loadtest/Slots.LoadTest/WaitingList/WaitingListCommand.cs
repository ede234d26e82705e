using System.Globalization;
using System.Text.Json;
using Slots.LoadTest.Reporting;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.WaitingList;

/// <summary>Slots.LoadTest waitlist: the waiting list's cancel-to-offer and claim (<see cref="WaitingListRun"/>) against a running API.</summary>
public static class WaitingListCommand
{
    public const string Usage = """
                       Slots.LoadTest waitlist --target URL --admin-key KEY [--line 1000] [--seconds 30] [--settle-seconds 30] [--seed 29]
                           [--run-id LETTERS] [--watch-pids P,…] [--json PATH]
                           (100 booked seats cancelled over the seconds, each offered to the next in line, claimed or declined; the API's
                           scheduler jobs must run: Slots:Scheduler:InProcess or the scheduler process)
        """;

    public static async Task<int> RunAsync(Args args, IReadOnlyList<(string Role, int Pid)> pids, CancellationToken ct)
    {
        var target = AdminTarget.Read(args);
        var line = args.Whole("line", 1000, 100, 100_000);
        var seconds = args.Whole("seconds", 30, 1, 600);
        var settle = args.Whole("settle-seconds", 30, 1, 600);
        var seed = args.Whole("seed", 29, 0, int.MaxValue);
        var json = args.Text("json");
        args.RejectUnknown();
        if (args.Errors.Count > 0 || target is null)
        {
            return Cli.Fail(args.Errors);
        }
        var report = await WaitingListRun.RunAsync(new WaitingListOptions(target.Url, target.AdminKey, target.RunId, line, seconds, settle, seed), pids, ct);
        Console.WriteLine(Line(report));
        Cli.Write(json, report);
        return report.Passed ? 0 : 1;
    }

    /// <summary>The report in one line, as the summary gives it.</summary>
    public static string Line(WaitingListReport r)
    {
        var refused = r.Refused.Count == 0 ? "none" : string.Join(", ", r.Refused.Select(kv => $"{kv.Key} × {kv.Value}"));
        var cpu = r.Processes.Where(p => p.Role == "api").Sum(p => p.CpuCoreShare);
        var slowest = r.SlowestClaims is { Count: > 0 } s
            ? string.Create(CultureInfo.InvariantCulture, $", the slowest {string.Join(", ", s.Select(c => $"{c.Ms:0.0} ms at {c.AtSeconds:0.0} s"))}")
            : "";
        return string.Create(CultureInfo.InvariantCulture,
            $"the waiting list ({r.Seats} booked seats cancelled over the run, a line of {r.Line:N0}, the head of the line read every 100 ms): " +
            $"cancel to first offer p50 {r.CancelToOffer.P50 / 1000:0.00} s, p99 {r.CancelToOffer.P99 / 1000:0.00} s over {r.CancelToOffer.Count}; " +
            $"{r.Offered} offers, {r.Claimed} claimed (p50 {r.Claims.P50:0.0} ms, p99 {r.Claims.P99:0.0} ms{slowest}), {r.Declined} declined by leaving; refused {refused}; " +
            $"at the end {r.BookedAtEnd} booked, {r.OffersOpenAtEnd} held, {r.HeldTwice} held twice: {(r.Passed ? "passed" : "FAILED")}; " +
            $"API CPU {cpu:0.00} cores over {r.Seconds:0} s");
    }
}
