using System.Globalization;
using System.Text;
using System.Text.Json;
using Slots.LoadTest.Data;
using Slots.LoadTest.Room;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Reporting;

/// <summary>
/// The benchmark's one table from the scenario files of one backend (noop, baseline, reserve,
/// stampede, soldout, room, availability, seed): the ratios the design is judged by, next to the issue's targets.
/// </summary>
public static class Summary
{
    public static string Markdown(string folder, string backend)
    {
        RunReport? Run(string name) => Read<RunReport>(folder, name);
        var noop = Run("noop");
        var baseline = Run("baseline");
        var real = Run("reserve");
        var aged = Run("reserve-age");
        var paired = Run("reserve-pair");
        var invited = Run("reserve-invite");
        var stampede = Run("stampede");
        var soldOut = Run("soldout");
        var room = Read<RoomReport>(folder, "room");
        var availability = Read<AvailabilityReport>(folder, "availability");
        var kept = Read<AvailabilityReport>(folder, "availability-kept");
        var finder = Read<FinderProbe.FinderReport>(folder, "finder");
        var site = Read<Site.SiteReport>(folder, "site");
        var waitlist = Read<WaitingList.WaitingListReport>(folder, "waitlist");
        var commits = Read<CommitYardstick>(folder, "commit");
        var seed = Read<SeedResult>(folder, "seed");
        var calibration = Read<Calibration>(folder, "calibration");
        var ceiling = Read<Ceiling>(folder, "ceiling");
        var inv = CultureInfo.InvariantCulture;
        var md = new StringBuilder();
        md.AppendLine(inv, $"### {backend}: {DateTimeOffset.UtcNow:yyyy-MM-dd HH:mm} UTC");
        md.AppendLine();
        md.AppendLine("| scenario | goodput /s | decided answers /s | p50 ms | p99 ms | max ms | 429 share | 5xx, 408, timeouts, no answer | audit | API RSS max MB | CPU cores: API / DB / proxy / generator | CPU µs per decided answer: API / DB | p99 ms at the server: 201 / 409 / 429 |");
        md.AppendLine("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---|---|");
        foreach (var (name, r) in new[] { ("no-op (HTTP ceiling)", noop), ("baseline (EF Core)", baseline), ("real path", real), ("real path, age rule", aged), ("real path, invitation codes", invited), ("real path, pairs (two doses)", paired), ("stampede", stampede), ("sold-out stampede", soldOut) })
        {
            if (r is null)
            {
                continue;
            }
            var ok = Ok(r);
            md.AppendLine(inv, $"| {name} | {r.GoodputPerSecond:0.0} | {r.AnswersPerSecond:0.0} | {ok.P50:0.00} | {ok.P99:0.00} | {ok.Max:0.00} | {r.Share429:P1} | {r.Errors.Where(e => !e.Key.Contains("cut off", StringComparison.Ordinal) && !e.Key.EndsWith(Answers.ResentAtOnce, StringComparison.Ordinal)).Sum(e => e.Value)} | {AuditText(r.Audit)} | {MaxRss(r.Processes)} | {Cpu(r.Processes)} | {CpuPerAnswer(r)} | {AtServer(r.Server)} |");
        }
        md.AppendLine();
        md.Append(RuleRounds.Markdown(RuleRounds.Read(folder)));
        if (real is not null && baseline is not null && baseline.GoodputPerSecond > 0)
        {
            md.AppendLine(inv, $"- real / baseline goodput: **{real.GoodputPerSecond / baseline.GoodputPerSecond:0.00}×** (target ≥ 10×)");
        }
        if (real is not null && noop is not null && noop.GoodputPerSecond > 0)
        {
            md.AppendLine(inv, $"- real / no-op: **{real.GoodputPerSecond / noop.GoodputPerSecond:0.00}** of the HTTP stack's ceiling");
        }
        if (calibration is { AnswersPerSecond: > 0 })
        {
            var generator = noop is null ? "no generator no-op to compare" : string.Create(inv,
                $"the generator's no-op {noop.AnswersPerSecond:N0}/s = **{noop.AnswersPerSecond / calibration.AnswersPerSecond:0.00}** of it (target ≥ 0.8)");
            md.AppendLine(inv, $"- calibration: {calibration.Tool} answered the no-op {calibration.AnswersPerSecond:N0}/s ({calibration.Connections} connections, " +
                $"{calibration.Seconds:0} s after a {calibration.WarmupSeconds:0} s warm-up, p99 {calibration.P99Ms:0.00} ms, non-2xx {calibration.Non2xx}, socket errors {calibration.SocketErrors}); {generator}");
        }
        md.Append(Sweep.Markdown(folder, noop, baseline, real));
        if (ceiling is { BookingsPerSecond: > 0 })
        {
            var share = ceiling.SeatsInRange > 0 ? (double)ceiling.Bookings / ceiling.SeatsInRange : 0;
            var low = share > 0.3 ? string.Create(inv, $" (it booked {share:P0} of the seats it draws from: the supply ran low, so this is less than the database's ceiling)") : "";
            var against = real is null ? "" : string.Create(inv, $"; real path {real.GoodputPerSecond:N0}/s = **{real.GoodputPerSecond / ceiling.BookingsPerSecond:0.000}** of it");
            md.AppendLine(inv, $"- ceiling ({ceiling.Tool}: the same bookings as bare set-based SQL on the same PostgreSQL and data, {ceiling.Clients} clients, " +
                $"{ceiling.Batch} per transaction, {(ceiling.Durable ? "durable" : "NOT durable")}, {ceiling.Seconds:0} s): {ceiling.BookingsPerSecond:N0} bookings/s{low}{against}");
        }
        else if (backend.StartsWith("sqlite", StringComparison.OrdinalIgnoreCase))
        {
            md.AppendLine("- ceiling: PostgreSQL only (bare set-based SQL by pgbench); not run on SQLite");
        }
        if (stampede is not null)
        {
            var fives = stampede.Errors.Where(e => e.Key.Contains("HTTP 5", StringComparison.Ordinal)).Sum(e => e.Value);
            var timeouts = stampede.Errors.Where(e => e.Key.Contains("timeout", StringComparison.Ordinal) || e.Key.Contains("HTTP 408", StringComparison.Ordinal)).Sum(e => e.Value);
            var unanswered = stampede.Errors.Where(e => e.Key.Contains("no answer", StringComparison.Ordinal)).Sum(e => e.Value);
            var resent = stampede.Errors.Where(e => e.Key.EndsWith(Answers.ResentAtOnce, StringComparison.Ordinal)).Sum(e => e.Value);
            var limited = stampede.Latency.TryGetValue("reserve 429", out var l429) ? l429 : LatencyStats.Empty;
            var reads = AvailabilityAtServer(stampede.Server) is { Length: > 0 } read ? read + " (target p99 < 5 ms)" : "";
            md.AppendLine(inv, $"- stampede: step from {stampede.WarmupRate:0}/s to {stampede.StepRate:0}/s users; 5xx {fives}, timeouts {timeouts}, no answer {unanswered} (target 0), sent again at once after the connection closed before an answer {resent}; " +
                $"p99 of 201 {Ok(stampede).P99:0.00} ms (target < 100); 429 max {limited.Max:0.00} ms, p99 {limited.P99:0.00} ms over {limited.Count} (target: every one < 10 ms); " +
                $"users the generator could not start: {stampede.Users.NotStarted}; " +
                $"at the server{(stampede.Server is { } at ? $" ({at.Source})" : "")}, p99 ms of 201 / 409 / 429: {AtServer(stampede.Server)}{reads}{AtSocket(stampede.Socket)}");
        }
        if (soldOut is not null)
        {
            // What the answers of a crowd far larger than the seats cost: mostly 409 and 429, and people told there is no free seat.
            var answers = string.Join(", ", soldOut.Latency.OrderByDescending(kv => kv.Value.Count)
                .Select(kv => $"{kv.Key} {kv.Value.Count} (p99 {kv.Value.P99:0.0} ms)"));
            md.AppendLine(inv, $"- sold-out stampede (one place, a week's seats, the same step): booked {soldOut.Confirmed}; answers at the client: {answers}; " +
                $"users: {string.Join(", ", soldOut.Users.Outcomes.Select(kv => $"{kv.Key} {kv.Value}"))}, not started {soldOut.Users.NotStarted}; CPU µs per decided answer API / DB {CpuPerAnswer(soldOut)}{AtSocket(soldOut.Socket)}");
        }
        if (room is not null)
        {
            Admission(md, room);
        }
        foreach (var probe in new[] { availability, kept }.OfType<AvailabilityReport>())
        {
            var cpu = probe.ApiCpuMicrosPerAnswer is { } us ? string.Create(inv, $"; API CPU {us:0.0} µs per answer") : "";
            md.AppendLine(inv, $"- availability, {probe.Days} days at one place ({probe.PlacesCycled} place{(probe.PlacesCycled == 1 ? "" : "s")} cycled, {probe.Concurrency} at a time): " +
                $"p50 {probe.Ok.P50:0.00} ms, p99 {probe.Ok.P99:0.00} ms, max {probe.Ok.Max:0.00} ms over {probe.Ok.Count} (target p99 < 5 ms); other answers {probe.NotOk}{AvailabilityAtServer(probe.Server)}{cpu}{AtWrkPace(probe.AtWrkPace)}");
        }
        if (finder is not null)
        {
            md.AppendLine(Finder(finder, stampede, inv));
        }
        if (site is not null)
        {
            md.AppendLine($"- {Site.SiteCommand.Line(site)}");
        }
        if (commits is not null)
        {
            md.AppendLine($"- {Bench.CommitPace.Line(commits)}");
        }
        if (waitlist is not null)
        {
            md.AppendLine($"- {WaitingList.WaitingListCommand.Line(waitlist)}");
        }
        if (seed is not null)
        {
            md.AppendLine(inv, $"- data: {seed.Places} places, {seed.Slots:N0} slots, {seed.Seats:N0} hot seats, seeded in {seed.Seconds:0.0} s; " +
                $"database {seed.DatabaseBytes / 1048576.0:0} MB, hot_seats with index {(seed.HotSeatsBytes < 0 ? "n/a" : $"{seed.HotSeatsBytes / 1048576.0:0} MB")}");
        }
        return md.ToString();
    }

    /// <summary>The waiting-room stampede: what the crowd got, how fast it was told, and the verdicts.</summary>
    private static void Admission(StringBuilder md, RoomReport r)
    {
        var inv = CultureInfo.InvariantCulture;
        var failed = r.Checks.Where(c => !c.Passed).Select(c => c.Name).ToList();
        md.AppendLine(inv, $"- waiting-room stampede ({r.Counts.Arrivals} arrivals for {r.Setup.Seats} seats at one place, from {r.Setup.PreQueueSeconds:0} s before the opening over {r.Setup.ArrivalSeconds:0} s; " +
            $"admitting {(r.Setup.AdmitPerSecond is { } rate ? rate.ToString("0.#", inv) + "/s" : "as the seats allow")}): " +
            $"**{(failed.Count == 0 ? "all checks passed" : "FAILED: " + string.Join(", ", failed))}**");
        md.AppendLine(inv, $"  - booked {r.Counts.Bookings} of {r.Setup.Seats} seats{(r.PlaceReservations is { } held ? $" (database: {held})" : "")}; joins 201 {r.Counts.JoinsCreated}, 200 {r.Counts.JoinsAgain}; " +
            $"status polls {r.Counts.Polls}; 429 {r.Counts.Answers429}; 5xx {r.Counts.Answers5xx} (target 0)");
        var atServer = r.Server is { } server
            ? string.Create(inv, $"; at the server ({server.Source}), p99 ms: {string.Join(", ", server.Answers.Where(kv => kv.Value.Count > 0).Select(kv => string.Create(inv, $"{kv.Key} {kv.Value.P99:0.0} ({kv.Value.Count})")))}")
            : "";
        md.AppendLine(inv, $"  - at the client (an upper bound of the server's time on this one machine; target < 100 ms): join p50 {r.JoinLatency.P50:0.00} ms, p99 {r.JoinLatency.P99:0.00} ms, max {r.JoinLatency.Max:0.00} ms; " +
            $"status p50 {r.StatusLatency.P50:0.00} ms, p99 {r.StatusLatency.P99:0.00} ms, max {r.StatusLatency.Max:0.00} ms{atServer}");
        md.AppendLine(inv, $"  - sell-out: served {r.SellOut.ServedAtSoldOut?.ToString(inv) ?? "—"} when the opening first read 0 seats left, {r.SellOut.ServedAtEnd} at the end; " +
            $"told no-seats-left after the last seat went: p50 {r.Told.AfterLastSeatMs.P50:0} ms, p99 {r.Told.AfterLastSeatMs.P99:0} ms, max {r.Told.AfterLastSeatMs.Max:0} ms " +
            $"({r.Told.Told} of {r.Told.WaitingAtSellOut} waiting; never told {r.Told.NeverTold})");
        md.AppendLine(inv, $"  - first in, first out: {r.Fairness.JoinOrderInversions} of {r.Fairness.PostOpeningJoins} joins after the opening placed out of order, " +
            $"{r.Fairness.AdmissionOrderInversions} admissions out of order; second joins with another place {r.Counts.RejoinsMoved} of {r.Counts.Rejoiners}");
        md.AppendLine(inv, $"  - CPU µs per decided answer (join, status, availability, booking) API / DB / proxy: {r.CpuPerAnswer()} over {r.Counts.DecidedAnswers} answers; " +
            $"CPU cores API / DB / proxy / generator {Cpu(r.Processes)}");
    }

    /// <summary>The same read at wrk's pace, when it was timed so: the API's CPU per answer where the generator's pace does not set it.</summary>
    public static string AtWrkPace(WrkPaceReport? wrk) =>
        wrk is null ? "" : string.Create(CultureInfo.InvariantCulture,
            $"; at wrk's pace ({wrk.Connections} connections, {wrk.Seconds:0.#} s): {wrk.PerSecond:0}/s, p99 {wrk.P99Ms:0.00} ms, non-2xx {wrk.Non2xx}, " +
            $"API CPU {(wrk.ApiCpuMicrosPerAnswer is { } us ? $"{us:0.0} µs per answer" : "not watched")} (target ≤ 50 µs)");

    /// <summary>
    /// Availability reads at the server: HAProxy's "availability 200", or the API histogram's kept
    /// (an earlier answer's bytes) and built answers, each with its count; empty when not watched.
    /// </summary>
    public static string AvailabilityAtServer(ServerLatency? server)
    {
        var inv = CultureInfo.InvariantCulture;
        var reads = new[] { "200", "kept", "built" }
            .Select(outcome => (Outcome: outcome, Stats: server?.Answers.GetValueOrDefault("availability " + outcome)))
            .Where(r => r.Stats is { Count: > 0 })
            .Select(r => string.Create(inv, $"{r.Outcome} p50 {r.Stats!.P50:0.00} ms, p99 {r.Stats.P99:0.00} ms over {r.Stats.Count}"))
            .ToList();
        return reads.Count == 0 ? "" : $"; availability at the server: {string.Join("; ", reads)}";
    }

    /// <summary>
    /// The same at the targets' sockets (tcpdump): p99 of 201 / 409 / 429 and of availability reads, with their counts; empty
    /// when not asked for, the reason when asked for and not measured.
    /// </summary>
    public static string AtSocket(ServerLatency? socket)
    {
        if (socket is null)
        {
            return "";
        }
        if (socket.Answers.Count == 0)
        {
            return $"; at the socket: {socket.Source}";
        }
        var reads = socket.Answers.GetValueOrDefault("availability 200") is { Count: > 0 } read
            ? string.Create(CultureInfo.InvariantCulture, $"; availability 200 p50 {read.P50:0.00} ms, p99 {read.P99:0.00} ms over {read.Count}")
            : "";
        var counts = string.Join(" / ", ((string[])["reserve 201", "reserve 409", "reserve 429"]).Select(k => socket.Answers.GetValueOrDefault(k)?.Count ?? 0));
        return $"; at the socket ({socket.Source}), p99 ms of 201 / 409 / 429: {AtServer(socket)} (over {counts}){reads}";
    }

    /// <summary>p99 at the server of bookings, slot-full and 429 answers ("—" where none or not watched); 429s answered by HAProxy itself, and the API's overloaded ones, count.</summary>
    public static string AtServer(ServerLatency? server)
    {
        if (server is null)
        {
            return "—";
        }
        string P99(params string[] keys)
        {
            var stats = keys.Select(k => server.Answers.GetValueOrDefault(k)).OfType<LatencyStats>().Where(s => s.Count > 0).ToList();
            return stats.Count == 0 ? "—" : stats.Max(s => s.P99).ToString("0.0", CultureInfo.InvariantCulture);
        }
        // HAProxy names answers by status; the API's histogram by outcome.
        return $"{P99("reserve 201", "reserve 204", "reserve reserved")} / {P99("reserve 409", "reserve slot-full")} / {P99("reserve 429", "reserve 429 at the proxy", "reserve overloaded")}";
    }

    private static LatencyStats Ok(RunReport r) =>
        r.Latency.TryGetValue("reserve 201", out var created) ? created
        : r.Latency.TryGetValue("reserve 204", out var empty) ? empty : LatencyStats.Empty;

    private static string AuditText(AuditResult? a) => a is null ? "—" : a.Passed ? $"passed ({a.Confirmations})" : "**FAILED**";

    private static string MaxRss(IReadOnlyList<ProcessStats> processes) =>
        processes.Any(p => p.Role == "api")
            ? string.Join(" / ", processes.Where(p => p.Role == "api").Select(m => m.MaxRssMb.ToString("0", CultureInfo.InvariantCulture)))
            : "—";

    private static string Cpu(IReadOnlyList<ProcessStats> processes)
    {
        string Of(string role) => processes.Any(p => p.Role == role)
            ? processes.Where(p => p.Role == role).Sum(p => p.CpuCoreShare).ToString("0.00", CultureInfo.InvariantCulture)
            : "—";
        return $"{Of("api")} / {Of("database")} / {Of("proxy")} / {Of("generator")}";
    }

    /// <summary>CPU time each process spent per decided answer (201, 409, 404, 429, …): the cost the design must cut.</summary>
    public static string CpuPerAnswer(RunReport r)
    {
        var answers = r.AnswersPerSecond * r.ElapsedSeconds;
        string Of(string role) => answers > 0 && r.Processes.Any(p => p.Role == role)
            ? (r.Processes.Where(p => p.Role == role).Sum(p => p.CpuSeconds) * 1e6 / answers).ToString("0", CultureInfo.InvariantCulture)
            : "—";
        return $"{Of("api")} / {Of("database")}";
    }

    /// <summary>
    /// The finder's line: the first publication's time and the API's memory meanwhile (target under 10 s), and what
    /// polling cost the API: its CPU cores over the polling window less its idle ones, against its cores in the stampede
    /// (target ≤ 2 %).
    /// </summary>
    private static string Finder(FinderProbe.FinderReport f, RunReport? stampede, CultureInfo inv)
    {
        var idle = f.IdleProcesses?.Where(p => p.Role == "api").Sum(p => p.CpuCoreShare) ?? 0;
        var polling = Math.Max(0, f.Processes.Where(p => p.Role == "api").Sum(p => p.CpuCoreShare) - idle);
        var busy = stampede?.Processes.Where(p => p.Role == "api").Sum(p => p.CpuCoreShare) ?? 0;
        var share = busy > 0 ? string.Create(inv, $" = **{polling / busy:P1}** of the API's CPU in the stampede ({busy:0.00} cores; target ≤ 2 %)") : "";
        var rss = f.ColdProcesses.Where(p => p.Role == "api").Select(p => p.MaxRssMb).DefaultIfEmpty(0).Max();
        return string.Create(inv, $"- finder (SMART Scheduling Links): the first publication, {f.Slots:N0} Slots, {f.Schedules:N0} Schedules, " +
            $"{f.Locations:N0} Locations in {f.Files} files ({f.Bytes / 1048576.0:0} MB), read in **{f.ColdSeconds:0.00} s** (target < 10 s), " +
            $"API RSS max {rss:0} MB meanwhile; polled every second for {f.PollSeconds} s ({f.Polls} polls, {f.Publications} publications, " +
            $"manifest p99 {f.Manifest.P99:0.00} ms, other answers {f.NotOk}): the API's CPU {polling:0.000} cores above its idle {idle:0.000}{share}");
    }

    private static T? Read<T>(string folder, string name) where T : class
    {
        var path = Path.Combine(folder, name + ".json");
        return File.Exists(path) ? JsonSerializer.Deserialize<T>(File.ReadAllText(path), RunReport.Json) : null;
    }
}
