using System.Globalization;
using System.Text;
using Slots.LoadTest.Data;
using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Room;

/// <summary>How the scene was set: the place, the opening and the crowd.</summary>
public sealed record RoomSetup(
    int PlaceId,
    long OpeningId,
    string Day,
    int Seats,
    int Capacity,
    double OpensAtSeconds,
    double PreQueueSeconds,
    double ArrivalSeconds,
    double? AdmitPerSecond,
    int AdmissionSeconds,
    int AbandonAllowance,
    double AbandonShare,
    double RejoinShare,
    int MaxInFlight,
    int Sources);

/// <summary>
/// What the crowd did and got. Joins: 201 a new place in line, 200 the one held already.
/// <paramref name="RejoinsMoved"/>: second joins not answered 200 with the first one's place.
/// <paramref name="DecidedAnswers"/>: every answer but 429, 503 and 5xx (what CPU per answer divides by).
/// <paramref name="Rejections"/>: why visits ended rejected (status and problem code), by count.
/// </summary>
public sealed record RoomCounts(
    long Arrivals,
    long JoinsCreated,
    long JoinsAgain,
    long Rejoiners,
    long RejoinsMoved,
    long Polls,
    long Bookings,
    long Answers5xx,
    long Answers429,
    long DecidedAnswers,
    IReadOnlyDictionary<string, long> Outcomes,
    IReadOnlyDictionary<string, long> Rejections);

/// <summary>One pass/fail verdict of the scenario.</summary>
public sealed record RoomCheck(string Name, bool Passed, string Detail);

/// <summary>
/// The waiting-room stampede's figures and verdicts. Latencies are as the client saw them (sent →
/// body read, on the same machine as the API): an upper bound of the time at the server.
/// </summary>
public sealed record RoomReport(
    string Scenario,
    IReadOnlyList<string> Targets,
    int Seed,
    string RunId,
    DateTimeOffset StartedAt,
    double ElapsedSeconds,
    RoomSetup Setup,
    RoomCounts Counts,
    LatencyStats JoinLatency,
    LatencyStats StatusLatency,
    IReadOnlyDictionary<string, LatencyStats> Latency,
    IReadOnlyDictionary<string, long> Errors,
    SellOutFigures SellOut,
    ToldFigures Told,
    FairnessFigures Fairness,
    IReadOnlyList<OpeningSample> Samples,
    long SampleErrors,
    IReadOnlyList<ProcessStats> Processes,
    AuditResult? Audit,
    long? PlaceReservations,
    IReadOnlyList<RoomCheck> Checks)
{
    public bool Passed => Checks.All(c => c.Passed);

    /// <summary>The same answers timed at the server (HAProxy's log), apart from the generator's own queueing.</summary>
    public ServerLatency? Server { get; init; }

    public static RoomReport From(RoomOptions o, RoomRun run, AuditResult? audit, long? placeReservations)
    {
        var latencies = run.Recorder.Latencies;
        long Count(Func<string, int, bool> which) => latencies
            .Where(kv => which(kv.Key[..kv.Key.LastIndexOf(' ')], int.Parse(kv.Key[(kv.Key.LastIndexOf(' ') + 1)..], CultureInfo.InvariantCulture)))
            .Sum(kv => (long)kv.Value.Count);
        LatencyStats Of(string operation) => LatencyStats.Of(latencies
            .Where(kv => kv.Key.StartsWith(operation + " ", StringComparison.Ordinal)).SelectMany(kv => kv.Value).ToList()).Rounded();
        var errors = run.Recorder.Errors.OrderBy(kv => kv.Key, StringComparer.Ordinal).ToDictionary(kv => kv.Key, kv => kv.Value);
        var arrivals = run.Arrivals;
        var counts = new RoomCounts(
            arrivals.Count,
            Count((op, s) => op == "join" && s == 201),
            Count((op, s) => op == "join" && s == 200),
            arrivals.LongCount(a => a.Rejoins && a.JoinStatus != 0),
            arrivals.LongCount(a => a.RejoinStatus is { } s && (s != 200 || (a.RejoinPosition is { } p && a.Position is { } q && p != q))),
            Count((op, _) => op == "status"),
            run.Recorder.Confirmations.Count,
            errors.Where(e => e.Key.Contains("HTTP 5", StringComparison.Ordinal)).Sum(e => e.Value),
            Count((_, s) => s == 429),
            Count((_, s) => s is not (429 or 503) && s < 500),
            arrivals.GroupBy(a => a.Outcome).OrderBy(g => g.Key).ToDictionary(g => g.Key.ToString(), g => g.LongCount()),
            arrivals.Where(a => a.Rejection is not null).GroupBy(a => a.Rejection!).OrderBy(g => g.Key, StringComparer.Ordinal)
                .ToDictionary(g => g.Key, g => g.LongCount()));
        var sellOut = RoomFigures.SellOut(arrivals, run.Samples);
        var told = RoomFigures.Told(arrivals, sellOut.LastSeatAt);
        var fairness = RoomFigures.Fairness(arrivals, run.OpensAt, o.OrderSlack.TotalSeconds);
        var setup = new RoomSetup(run.PlaceId, run.OpeningId, run.Day, run.Seats, o.Capacity, run.OpensAt, o.PreQueue.TotalSeconds,
            o.ArrivalWindow.TotalSeconds, o.AdmitPerSecond, o.AdmissionSeconds, o.AbandonAllowance, o.AbandonShare, o.RejoinShare, o.MaxInFlight, o.Sources);
        return new RoomReport("room", o.Targets.Select(t => t.ToString()).ToList(), o.Seed, o.RunId, run.StartedAt,
            Math.Round(run.Recorder.Elapsed.TotalSeconds, 1), setup, counts, Of("join"), Of("status"),
            latencies.OrderBy(kv => kv.Key, StringComparer.Ordinal).ToDictionary(kv => kv.Key, kv => LatencyStats.Of(kv.Value).Rounded()),
            errors, sellOut, told, fairness, run.Samples, run.SampleErrors, run.Processes, audit, placeReservations,
            Judge(setup, counts, sellOut, told, fairness, audit, placeReservations));
    }

    /// <summary>The verdicts: any one failing fails the run (exit code 1), as the audit does for the other scenarios.</summary>
    public static IReadOnlyList<RoomCheck> Judge(RoomSetup setup, RoomCounts counts, SellOutFigures sellOut, ToldFigures told, FairnessFigures fairness,
        AuditResult? audit, long? placeReservations)
    {
        var inv = CultureInfo.InvariantCulture;
        var checks = new List<RoomCheck>
        {
            new("no 5xx", counts.Answers5xx == 0, string.Create(inv, $"{counts.Answers5xx} answers 5xx")),
            new("booked = seats", counts.Bookings == setup.Seats && (placeReservations is null || placeReservations == setup.Seats),
                string.Create(inv, $"{counts.Bookings} bookings answered 201 for {setup.Seats} seats") +
                (placeReservations is { } held ? string.Create(inv, $"; the database holds {held} at the place") : "")),
            new("nobody admitted after sell-out",
                sellOut.ServedAtSoldOut is { } served && sellOut.ServedAtEnd == served && sellOut.AdmittedAfterSoldOut == 0,
                sellOut.ServedAtSoldOut is null
                    ? "the opening never showed 0 seats left"
                    : string.Create(inv, $"served {sellOut.ServedAtSoldOut} when seats left first read 0, {sellOut.ServedAtEnd} at the end; {sellOut.AdmittedAfterSoldOut} told admitted past it")),
            new("everyone waiting told no-seats-left", told.NeverTold == 0,
                string.Create(inv, $"{told.Told} of {told.WaitingAtSellOut} waiting when the last seat went were told; never told {told.NeverTold}")),
            new("first in, first out", fairness.JoinOrderInversions == 0 && fairness.AdmissionOrderInversions == 0,
                string.Create(inv, $"{fairness.JoinOrderInversions} of {fairness.PostOpeningJoins} joins after the opening placed behind a later one; " +
                    $"{fairness.AdmissionOrderInversions} of {fairness.WithPosition} told waiting after someone further back was admitted")),
            new("one place in line per person", counts.RejoinsMoved == 0,
                string.Create(inv, $"{counts.RejoinsMoved} of {counts.Rejoiners} second joins not answered 200 with the same place")),
        };
        if (audit is not null)
        {
            checks.Add(new("audit", audit.Passed, string.Create(inv, $"{audit.Confirmations} confirmations, missing {audit.MissingConfirmations}, shared seats {audit.SharedSeats}, persons with two {audit.PersonsWithTwoActive}")));
        }
        return checks;
    }


    /// <summary>CPU time per decided answer by role (api, database, proxy), in µs; "—" for a role not watched.</summary>
    public string CpuPerAnswer()
    {
        string Of(string role) => Counts.DecidedAnswers > 0 && Processes.Any(p => p.Role == role)
            ? (Processes.Where(p => p.Role == role).Sum(p => p.CpuSeconds) * 1e6 / Counts.DecidedAnswers).ToString("0", CultureInfo.InvariantCulture)
            : "—";
        return $"{Of("api")} / {Of("database")} / {Of("proxy")}";
    }

    public string ToTable()
    {
        var t = new StringBuilder();
        var inv = CultureInfo.InvariantCulture;
        var s = Setup;
        t.AppendLine(inv, $"== waiting-room stampede: {s.Seats} seats ({RoomOptions.TimesPerDay} times × {s.Capacity}) on {s.Day}, opening {s.OpeningId} at {s.OpensAtSeconds:0.0} s, " +
            $"admitting {(s.AdmitPerSecond is { } r ? r.ToString("0.#", inv) + "/s" : "as fast as the seats allow")}, {s.AdmissionSeconds} s to book, abandon allowance {s.AbandonAllowance}; seed {Seed}, run {RunId}");
        t.AppendLine(inv, $"   {Counts.Arrivals} arrivals over {s.ArrivalSeconds:0.#} s from {s.PreQueueSeconds:0.#} s before the opening ({s.RejoinShare:P0} join twice, {s.AbandonShare:P0} never book); " +
            $"at most {s.MaxInFlight} requests in flight; {s.Sources} source addresses; ran {ElapsedSeconds:0.0} s");
        t.AppendLine(inv, $"   joins 201 {Counts.JoinsCreated}, 200 {Counts.JoinsAgain}; status polls {Counts.Polls}; bookings {Counts.Bookings}; 429 {Counts.Answers429}; 5xx {Counts.Answers5xx}; " +
            $"outcomes: {string.Join(", ", Counts.Outcomes.Select(kv => $"{kv.Key} {kv.Value}"))}" +
            $"{(Counts.Rejections.Count == 0 ? "" : $" (rejected: {string.Join(", ", Counts.Rejections.Select(kv => $"{kv.Key} {kv.Value}"))})")}");
        t.AppendLine(inv, $"   join p50 {JoinLatency.P50:0.00} ms, p99 {JoinLatency.P99:0.00} ms, max {JoinLatency.Max:0.00} ms; status p50 {StatusLatency.P50:0.00} ms, p99 {StatusLatency.P99:0.00} ms, max {StatusLatency.Max:0.00} ms " +
            $"(at the client, on the API's machine: an upper bound of the time at the server; target < 100 ms)");
        t.AppendLine("   answer                        count       p50      p95      p99      max  (ms)");
        foreach (var (key, l) in Latency)
        {
            t.AppendLine(inv, $"   {key,-26} {l.Count,9} {l.P50,9:0.00} {l.P95,8:0.00} {l.P99,8:0.00} {l.Max,8:0.00}");
        }
        t.AppendLine(Errors.Count == 0 ? "   errors: none (no 5xx, no timeout, no refused connection)" : "   errors:");
        foreach (var (kind, n) in Errors)
        {
            t.AppendLine(inv, $"     {kind}: {n}");
        }
        t.AppendLine(inv, $"   last seat went at {SellOut.LastSeatAt:0.00} s; the opening read 0 seats left at {SellOut.SoldOutSeenAt:0.00} s; " +
            $"told no-seats-left after the last seat: p50 {Told.AfterLastSeatMs.P50:0} ms, p99 {Told.AfterLastSeatMs.P99:0} ms, max {Told.AfterLastSeatMs.Max:0} ms over {Told.Told}; " +
            $"joined after it {Told.JoinedAfterSellOut} (told {Told.JoinedAfterSellOutTold})");
        foreach (var m in Processes)
        {
            t.AppendLine(inv, $"   {m.Role} pid {m.Pid} ({m.Name}): CPU {m.CpuSeconds:0.0} s = {m.CpuCoreShare:0.00} cores{(m.Role == "database" ? " (with its backends)" : "")}, VmRSS max {m.MaxRssMb:0.0} MB");
        }
        t.AppendLine(inv, $"   CPU µs per decided answer API / DB / proxy: {CpuPerAnswer()} over {Counts.DecidedAnswers} answers");
        foreach (var c in Checks)
        {
            t.AppendLine(inv, $"   {(c.Passed ? "passed" : "FAILED")}: {c.Name}: {c.Detail}");
        }
        return t.ToString();
    }
}
