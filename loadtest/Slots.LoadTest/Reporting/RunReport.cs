using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using Slots.LoadTest.Data;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Reporting;

public sealed record UserCounts(long Started, long NotStarted, IReadOnlyDictionary<string, long> Outcomes);

/// <summary>One scenario's figures: what the crowd got, how fast, and what the database says afterwards.</summary>
public sealed record RunReport(
    string Scenario,
    string Endpoint,
    string Flow,
    string Mode,
    IReadOnlyList<string> Targets,
    int Seed,
    string RunId,
    DateTimeOffset StartedAt,
    double DurationSeconds,
    double ElapsedSeconds,
    double WarmupSeconds,
    double WarmupRate,
    double StepRate,
    int MaxInFlight,
    int Sources,
    UserCounts Users,
    long ReserveRequests,
    long Confirmed,
    double GoodputPerSecond,
    double StepGoodputPerSecond,
    double AnswersPerSecond,
    double Share429,
    double Share503,
    IReadOnlyDictionary<string, long> Statuses,
    IReadOnlyDictionary<string, LatencyStats> Latency,
    IReadOnlyDictionary<string, long> Errors,
    IReadOnlyList<ProcessStats> Processes,
    AuditResult? Audit)
{
    public static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web)
    {
        WriteIndented = true,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    };

    /// <summary>The same answers timed at the server (HAProxy's log or the API's histogram), apart from the generator's own queueing.</summary>
    public ServerLatency? Server { get; init; }

    /// <summary>The same answers timed at the targets' sockets (--socket-timings): the time before the handler runs included, the generator's excluded.</summary>
    public ServerLatency? Socket { get; init; }

    /// <summary>Seconds of the same crowd before the run, not measured (0: none).</summary>
    public double PrimeSeconds { get; init; }

    /// <summary>
    /// Of the decided answers, the users told by an availability read that no seat was free: in a sold-out stampede that read
    /// is the answer most people get, and the one the product should give cheaply.
    /// </summary>
    public long NoFreeSeatAnswers { get; init; }

    public static RunReport From(SimulationOptions o, DateTimeOffset startedAt, Recorder r, IReadOnlyList<ProcessStats> processes, AuditResult? audit)
    {
        var latencies = r.Latencies;
        var statuses = latencies.OrderBy(kv => kv.Key, StringComparer.Ordinal).ToDictionary(kv => kv.Key, kv => (long)kv.Value.Count);
        long Reserve(Func<int, bool> which) => latencies
            .Where(kv => kv.Key.StartsWith("reserve ", StringComparison.Ordinal) && which(int.Parse(kv.Key[8..], CultureInfo.InvariantCulture)))
            .Sum(kv => (long)kv.Value.Count);
        var reserveRequests = Reserve(_ => true);
        var elapsed = r.Elapsed.TotalSeconds;
        var confirmed = o.Endpoint == Simulation.Endpoint.Noop ? Reserve(s => s is >= 200 and < 300) : r.Confirmations.Count;
        var afterWarmup = r.Confirmations.Count(c => c.AtSeconds >= o.Arrivals.Warmup.TotalSeconds);
        var stepSeconds = Math.Max(0.001, elapsed - o.Arrivals.Warmup.TotalSeconds);
        // Answers that decide something (booked, full, already booked…): everything but "wait" and failures; and each user an
        // availability read told that nothing is free (one such read per user: the flow ends there).
        var noFreeSeat = r.Outcomes.GetValueOrDefault(UserOutcome.NoFreeSeat);
        var answers = Reserve(s => s is not (429 or 503) && s < 500) + noFreeSeat;
        return new RunReport(
            o.Scenario, o.Endpoint.ToString().ToLowerInvariant(), o.Flow.ToString().ToLowerInvariant(), o.Mode.ToString().ToLowerInvariant(),
            o.Targets.Select(t => t.ToString()).ToList(), o.Seed, o.RunId, startedAt,
            o.Duration.TotalSeconds, Round(elapsed), o.Arrivals.Warmup.TotalSeconds, o.Arrivals.WarmupRate, o.Arrivals.StepRate,
            o.MaxInFlight, o.Sources,
            new UserCounts(r.Started, r.NotStarted, r.Outcomes.OrderBy(kv => kv.Key).ToDictionary(kv => kv.Key.ToString(), kv => kv.Value)),
            reserveRequests, confirmed,
            Round(confirmed / Math.Max(0.001, elapsed)),
            o.Mode == Simulation.Mode.Open && o.Arrivals.Warmup > TimeSpan.Zero ? Round(afterWarmup / stepSeconds) : Round(confirmed / Math.Max(0.001, elapsed)),
            Round(answers / Math.Max(0.001, elapsed)),
            Share(Reserve(s => s == 429), reserveRequests),
            Share(Reserve(s => s == 503), reserveRequests),
            statuses,
            latencies.OrderBy(kv => kv.Key, StringComparer.Ordinal).ToDictionary(kv => kv.Key, kv => LatencyStats.Of(kv.Value).Rounded()),
            r.Errors.OrderBy(kv => kv.Key, StringComparer.Ordinal).ToDictionary(kv => kv.Key, kv => kv.Value),
            processes,
            audit)
        { NoFreeSeatAnswers = noFreeSeat };
    }

    private static double Round(double v) => Math.Round(v, 1);

    private static double Share(long part, long whole) => whole == 0 ? 0 : Math.Round((double)part / whole, 4);


    public string ToTable()
    {
        var t = new StringBuilder();
        var inv = CultureInfo.InvariantCulture;
        t.AppendLine(inv, $"== {Scenario}: {Endpoint} endpoint, {Flow} flow, {Mode} arrivals, {DurationSeconds:0} s (ran {ElapsedSeconds:0.0} s), seed {Seed}, run {RunId}");
        if (Mode == "open")
        {
            t.AppendLine(inv, $"   arrivals: {WarmupRate:0.#}/s for {WarmupSeconds:0} s, then {StepRate:0.#}/s; at most {MaxInFlight} users in flight; {Sources} source addresses");
        }
        else
        {
            t.AppendLine(inv, $"   {MaxInFlight} users at a time, each starting the next; {Sources} source addresses");
        }
        t.AppendLine(inv, $"   users started {Users.Started}, not started (generator at its in-flight bound) {Users.NotStarted}; outcomes: {string.Join(", ", Users.Outcomes.Select(kv => $"{kv.Key} {kv.Value}"))}");
        t.AppendLine(inv, $"   goodput {GoodputPerSecond:0.0} reservations/s (after the step {StepGoodputPerSecond:0.0}/s); decided answers {AnswersPerSecond:0.0}/s ({NoFreeSeatAnswers} of them no free seat, from availability); 429 share {Share429:P1}, 503 share {Share503:P1}");
        t.AppendLine("   answer                        count       p50      p95      p99      max  (ms)");
        foreach (var (key, s) in Latency)
        {
            t.AppendLine(inv, $"   {key,-26} {s.Count,9} {s.P50,9:0.00} {s.P95,8:0.00} {s.P99,8:0.00} {s.Max,8:0.00}");
        }
        foreach (var (where, latency) in (ReadOnlySpan<(string, ServerLatency?)>)[("at the server", Server), ("at the socket", Socket)])
        {
            if (latency is null)
            {
                continue;
            }
            t.AppendLine(inv, $"   {where} ({latency.Source}):");
            foreach (var (key, s) in latency.Answers)
            {
                t.AppendLine(inv, $"   {key,-26} {s.Count,9} {s.P50,9:0.00} {s.P95,8:0.00} {s.P99,8:0.00} {s.Max,8:0.00}");
            }
        }
        t.AppendLine(Errors.Count == 0 ? "   errors: none (no 5xx, no timeout, no refused connection)" : "   errors:");
        foreach (var (kind, n) in Errors)
        {
            t.AppendLine(inv, $"     {kind}: {n}");
        }
        foreach (var m in Processes)
        {
            t.AppendLine(inv, $"   {m.Role} pid {m.Pid} ({m.Name}): CPU {m.CpuSeconds:0.0} s = {m.CpuCoreShare:0.00} cores{(m.Role == "database" ? " (with its backends)" : "")}, VmRSS max {m.MaxRssMb:0.0} MB, mean {m.AvgRssMb:0.0} MB");
        }
        if (Audit is { } a)
        {
            t.AppendLine(inv, $"   audit {(a.Passed ? "PASSED" : "FAILED")}: {a.Confirmations} confirmations, missing {a.MissingConfirmations}, misplaced {a.MisplacedConfirmations}; " +
                $"shared seats {a.SharedSeats} (disk {a.SharedSeatsOnDisk}), seat mismatches {a.SeatMismatches}, overbooked slots {a.OverbookedSlots}; " +
                $"persons with two {a.PersonsWithTwoActive}; outbox reserved rows {a.ReservedOutboxRows} vs hot reservations {a.HotReservations}, " +
                $"confirmations without SMS {a.ConfirmationsWithoutOutbox}, duplicate SMS {a.DuplicateOutboxRows}, without change record {a.ConfirmationsWithoutChange}");
        }
        return t.ToString();
    }
}
