using System.Diagnostics;
using System.Globalization;
using System.Text;
using Npgsql;
using Slots.Topology.Run;

namespace Slots.LoadTest.Chaos;

/// <summary>One planned fault: what, to whom, how long the part stays down (or paused), and the calm before it.</summary>
public sealed record PlannedFault(int Number, string Kind, string Target, int DownMs, int GapMs);

/// <summary>
/// Injects faults into the local stack on a schedule drawn from one seed, so a run's faults can be
/// replayed exactly (the workload's timing around them cannot). Each fault is healed before the
/// next: the part is started again (the stack's start, <see cref="IStackControl.StartAsync"/>) and waited for until healthy; a
/// pause ends with SIGCONT. A part that misses its heal is recorded as such, described (its
/// process and threads, its sockets, the database's sessions, its log's tail) into
/// heal-miss-N.txt beside the history, then killed and started once more, as a supervisor would,
/// so the faults after it meet a whole stack.
/// </summary>
public sealed class Nemesis(
    IStackControl stack,
    string stackDir,
    HistoryRecorder history,
    TextWriter log,
    string? diagnostics = null,
    string? database = null)
{
    public static readonly string[] Kinds = ["api-kill", "scheduler-kill", "rabbitmq-kill", "postgres-fast", "postgres-immediate", "pause"];

    /// <summary>
    /// The faults of the high-availability stack (./slots stack up --ha): whole nodes. The primary's
    /// postgres alone, its Patroni alone (its postgres lives on, fenced by HAProxy's /primary check),
    /// or both; a RabbitMQ node; an HAProxy node while the workload uses both; an etcd member.
    /// </summary>
    public static readonly string[] HaKinds =
        ["api-kill", "scheduler-kill", "primary-postgres-kill", "primary-patroni-kill", "primary-node-kill", "rabbitmq-node-kill", "haproxy-kill", "etcd-restart", "pause"];

    /// <summary>The faults that take the PostgreSQL primary away: Patroni promotes the synchronous standby.</summary>
    public static bool IsPrimarySwitch(string kind) => kind.StartsWith("primary-", StringComparison.Ordinal);

    /// <summary>The same seed and count give the same faults, in the same order, with the same timings.</summary>
    public static IReadOnlyList<PlannedFault> Plan(int seed, int faults, int apiCount, int schedulerCount, bool quick, bool ha = false)
    {
        var rng = new Random(seed);
        var plan = new List<PlannedFault>();
        var kinds = ha ? HaKinds : Kinds;
        var block = kinds;
        for (var n = 1; n <= faults; n++)
        {
            if ((n - 1) % kinds.Length == 0)
            {
                // Every kind comes round in each block, in a shuffled order: even a short run meets them all.
                block = [.. kinds.OrderBy(_ => rng.Next())];
            }
            var kind = block[(n - 1) % kinds.Length];
            var target = kind switch
            {
                "api-kill" => $"api{rng.Next(1, apiCount + 1)}",
                "scheduler-kill" => Scheduler(rng.Next(1, schedulerCount + 1)),
                "rabbitmq-kill" => "rabbitmq",
                "postgres-fast" or "postgres-immediate" => "postgres",
                // Resolved when the fault is injected: whichever node Patroni has made primary by then.
                "primary-postgres-kill" or "primary-patroni-kill" or "primary-node-kill" => "primary",
                "rabbitmq-node-kill" => $"rabbitmq{rng.Next(1, 4)}",
                "haproxy-kill" => $"haproxy{rng.Next(1, 3)}",
                "etcd-restart" => $"etcd{rng.Next(1, 4)}",
                _ => PauseTarget(rng, apiCount, schedulerCount, ha),
            };
            var down = kind switch
            {
                "pause" => rng.Next(1000, quick ? 6000 : 15000),
                // Longer than Patroni's ttl (9 s): the dead leader's key expires and the synchronous
                // standby is promoted; a Patroni back sooner would find its own key and simply carry on.
                "primary-patroni-kill" or "primary-node-kill" => rng.Next(11_000, 14_000),
                _ => rng.Next(200, 3000),
            };
            plan.Add(new PlannedFault(n, kind, target, down, rng.Next(quick ? 1500 : 2000, quick ? 4000 : 6000)));
        }
        return plan;
    }

    private static string Scheduler(int n) => n == 1 ? "scheduler" : $"scheduler{n}";

    private static string PauseTarget(Random rng, int apiCount, int schedulerCount, bool ha)
    {
        var parts = Enumerable.Range(1, apiCount).Select(i => $"api{i}").Concat(Enumerable.Range(1, schedulerCount).Select(Scheduler));
        parts = ha
            ? parts.Concat(["rabbitmq1", "rabbitmq2", "rabbitmq3", "haproxy1", "haproxy2"])
            : parts.Append("postgres").Append("rabbitmq");
        var all = parts.ToArray();
        return all[rng.Next(all.Length)];
    }

    public async Task RunAsync(IReadOnlyList<PlannedFault> plan, CancellationToken ct)
    {
        foreach (var f in plan)
        {
            await Task.Delay(f.GapMs, ct);
            var fault = f;
            if (f.Target == "primary")
            {
                // The node that leads now; its postgres, its Patroni or both are what the fault kills.
                var leader = await AskAsync(stack.PrimaryAsync, ct);
                fault = f with { Target = leader ?? "pg1" };
            }
            var start = history.NowMs;
            _struckMs = null;
            _killedAt = null;
            log.WriteLine(string.Create(CultureInfo.InvariantCulture, $"[{start / 1000.0,7:0.0}s] fault {f.Number}/{plan.Count}: {f.Kind} {fault.Target} ({f.DownMs} ms) at {DateTimeOffset.UtcNow:HH:mm:ss.fff} UTC"));
            var healed = await InjectAsync(fault, ct);
            // The fault counts from its signal, not from the lookup of the processes before it (tens of ms).
            history.Record(new Fault(f.Number, f.Kind, fault.Target, _struckMs ?? start, history.NowMs, healed, _killedAt));
            if (!healed)
            {
                log.WriteLine($"          the stack did not come back after fault {f.Number}; see the stack logs");
            }
        }
    }

    private async Task<bool> InjectAsync(PlannedFault f, CancellationToken ct)
    {
        switch (f.Kind)
        {
            case "pause":
                var paused = await PidsAsync(f.Target, ct);
                await SignalAsync("STOP", paused, ct);
                try
                {
                    await Task.Delay(f.DownMs, ct);
                }
                finally
                {
                    await SignalAsync("CONT", paused, CancellationToken.None);
                }
                break;
            case "postgres-fast" or "postgres-immediate":
                await AskAsync(token => stack.PgStopAsync(f.Kind["postgres-".Length..], token), ct);
                await Task.Delay(f.DownMs, ct);
                return await StartAsync(f, ct);
            case "primary-postgres-kill" or "primary-patroni-kill":
                // One process of the node: the postmaster (its backends follow it), or Patroni (its
                // postgres lives on, unmanaged). The heal starts what is missing and waits until the
                // node serves again as a replica and the cluster has a synchronous standby.
                var part = f.Kind == "primary-postgres-kill" ? $"{f.Target}-postgres" : $"{f.Target}-patroni";
                var one = await PidsAsync(part, ct);
                await SignalAsync("KILL", one, ct);
                await WaitGoneAsync(one, ct);
                await Task.Delay(f.DownMs, ct);
                return await StartAsync(f, ct);
            default:
                var killed = await PidsAsync(f.Target, ct);
                await SignalAsync("KILL", killed, ct);
                // A killed process lingers (tearing down, then a zombie until reaped) for seconds on a
                // starved machine; a restart in that time found it "already running" and waited for
                // the health of a dead process. The down time counts from when it is really gone.
                await WaitGoneAsync(killed, ct);
                await Task.Delay(f.DownMs, ct);
                return await StartAsync(f, ct);
        }
        return true;
    }

    /// <summary>The heal: false when the part missed it, even if the second start after the diagnosis brought it up.</summary>
    private async Task<bool> StartAsync(PlannedFault f, CancellationToken ct)
    {
        if (await StartPartAsync(f.Target, ct))
        {
            return true;
        }
        var stuck = await PidsAsync(f.Target, ct);
        if (diagnostics is not null)
        {
            var file = Path.Combine(diagnostics, $"heal-miss-{f.Number}.txt");
            await File.WriteAllTextAsync(file, await DescribeAsync(f, stuck, ct), ct);
            log.WriteLine($"          {f.Target} missed its heal; described in {file}");
        }
        await SignalAsync("KILL", stuck, ct);
        await WaitGoneAsync(stuck, ct);
        var second = await StartPartAsync(f.Target, ct);
        log.WriteLine(second ? $"          {f.Target} came up on a second start" : $"          {f.Target} did not come up on a second start either");
        return false;
    }

    /// <summary>What a part that missed its heal was doing: enough to tell a wait on the database from one anywhere else.</summary>
    private async Task<string> DescribeAsync(PlannedFault f, IReadOnlyList<string> pids, CancellationToken ct)
    {
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"fault {f.Number}: {f.Kind} {f.Target}, described at {DateTimeOffset.UtcNow:O}");
        var (_, sockets) = await RunAsync("ss", ["-tanp"], ct);
        foreach (var pid in pids)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"\n== process {pid}");
            text.AppendLine(Read($"/proc/{pid}/status", l => l.StartsWith("State:", StringComparison.Ordinal)
                || l.StartsWith("Threads:", StringComparison.Ordinal) || l.StartsWith("VmRSS:", StringComparison.Ordinal)));
            text.AppendLine(CultureInfo.InvariantCulture, $"wchan: {Read($"/proc/{pid}/wchan", _ => true)}");
            text.AppendLine("threads (name, state, wchan):");
            foreach (var task in Directory.Exists($"/proc/{pid}/task") ? Directory.GetDirectories($"/proc/{pid}/task") : [])
            {
                var stat = Read($"{task}/stat", _ => true);
                var after = stat.LastIndexOf(')') + 2;
                var state = after < stat.Length ? stat[after] : '?';
                text.AppendLine(CultureInfo.InvariantCulture, $"  {Read($"{task}/comm", _ => true),-16} {state} {Read($"{task}/wchan", _ => true)}");
            }
            text.AppendLine("tcp sockets:");
            foreach (var line in sockets.Split('\n').Where(l => l.Contains($"pid={pid},", StringComparison.Ordinal)))
            {
                text.AppendLine("  " + line.Trim());
            }
        }
        if (database is not null)
        {
            text.AppendLine("\n== database sessions (pid | application | state | wait type | wait | in state for | query)");
            try
            {
                await using var connection = new NpgsqlConnection(database);
                await connection.OpenAsync(ct);
                await using var sessions = new NpgsqlCommand("""
                    SELECT pid, application_name, state, wait_event_type, wait_event, now() - state_change, left(query, 120)
                    FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() ORDER BY application_name
                    """, connection);
                await using var rows = await sessions.ExecuteReaderAsync(ct);
                while (await rows.ReadAsync(ct))
                {
                    text.AppendLine("  " + string.Join(" | ", Enumerable.Range(0, rows.FieldCount).Select(i => rows.IsDBNull(i) ? "" : rows.GetValue(i).ToString())));
                }
            }
            catch (Exception ex) when (ex is NpgsqlException or TimeoutException)
            {
                text.AppendLine("  unavailable: " + ex.Message);
            }
        }
        {
            var partLog = Path.Combine(stackDir, "logs", $"{f.Target}.log");
            text.AppendLine(CultureInfo.InvariantCulture, $"\n== last lines of {partLog}");
            if (File.Exists(partLog))
            {
                foreach (var line in File.ReadLines(partLog).TakeLast(40))
                {
                    text.AppendLine(line);
                }
            }
        }
        return text.ToString();
    }

    private static string Read(string path, Func<string, bool> keep)
    {
        try
        {
            return string.Join('\n', File.ReadAllLines(path).Where(keep)).Trim();
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return "(gone)";
        }
    }

    /// <summary>Starts what is not running and waits until every part is healthy (bounded by the stack's own waits); after the last fault.</summary>
    public Task<bool> HealAsync(CancellationToken ct) => AskAsync(stack.UpAsync, ct, StackLimit * 3);

    private async Task<IReadOnlyList<string>> PidsAsync(string part, CancellationToken ct) =>
        (await AskAsync(token => stack.PidsAsync(part, token), ct))?.Select(p => p.ToString(CultureInfo.InvariantCulture)).ToList() ?? [];

    private Task<bool> StartPartAsync(string part, CancellationToken ct) => AskAsync(token => stack.StartAsync(part, token), ct);

    /// <summary>The longest one call on the stack may take: a start waits for its part's health, and a Patroni
    /// node's for the cluster's synchronous standby too.</summary>
    internal static readonly TimeSpan StackLimit = TimeSpan.FromMinutes(3);

    /// <summary>A call on the stack that answers nothing: whether it succeeded (see the overload below).</summary>
    private Task<bool> AskAsync(Func<CancellationToken, Task> call, CancellationToken ct, TimeSpan? limit = null) =>
        AskAsync(async token => { await call(token); return true; }, ct, limit);

    /// <summary>One call on the stack; its answer, or the default when the part could not start, is unknown or
    /// overran <paramref name="limit"/> (the reason goes to the log). The soak's own cancellation still ends it.</summary>
    private async Task<T?> AskAsync<T>(Func<CancellationToken, Task<T>> call, CancellationToken ct, TimeSpan? limit = null)
    {
        using var bounded = CancellationTokenSource.CreateLinkedTokenSource(ct);
        bounded.CancelAfter(limit ?? StackLimit);
        try
        {
            return await call(bounded.Token);
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            log.WriteLine($"          stack: no answer within {(limit ?? StackLimit).TotalSeconds} s");
            return default;
        }
        catch (Exception ex) when (ex is StackStartException or StackUsageException or InvalidOperationException or IOException)
        {
            log.WriteLine($"          stack: {ex.Message.Trim()}");
            return default;
        }
    }

    /// <summary>Until every process is gone or a zombie (dead, waiting to be reaped), at most 30 s.</summary>
    private static async Task WaitGoneAsync(IReadOnlyList<string> pids, CancellationToken ct)
    {
        var limit = Stopwatch.StartNew();
        while (pids.Any(Running) && limit.Elapsed < TimeSpan.FromSeconds(30))
        {
            await Task.Delay(50, ct);
        }
    }

    /// <summary>The state letter of /proc/PID/stat (after the parenthesised command name): Z and X are dead.</summary>
    internal static bool Running(string pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            var state = stat[(stat.LastIndexOf(')') + 1)..].TrimStart();
            return state.Length > 0 && state[0] is not ('Z' or 'X');
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return false; // no such process any more
        }
    }

    /// <summary>When the current fault's first signal was sent (history milliseconds).</summary>
    private long? _struckMs;

    /// <summary>When `kill -KILL` had returned for the current fault's first SIGKILL (wall clock): the processes are dead by then.</summary>
    private DateTimeOffset? _killedAt;

    private async Task SignalAsync(string signal, IReadOnlyList<string> pids, CancellationToken ct)
    {
        if (pids.Count > 0)
        {
            _struckMs ??= history.NowMs;
            await RunAsync("kill", [$"-{signal}", .. pids], ct);
            if (signal == "KILL")
            {
                _killedAt ??= DateTimeOffset.UtcNow;
            }
        }
    }

    private async Task<(bool Ok, string Output)> RunAsync(string file, string[] args, CancellationToken ct)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var a in args)
        {
            start.ArgumentList.Add(a);
        }
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {file}.");
        var stdout = process.StandardOutput.ReadToEndAsync(ct);
        var stderr = process.StandardError.ReadToEndAsync(ct);
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(ct);
        limit.CancelAfter(TimeSpan.FromMinutes(3));
        try
        {
            await process.WaitForExitAsync(limit.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }
        var err = await stderr;
        if (process.ExitCode != 0 && err.Length > 0)
        {
            log.WriteLine($"          {Path.GetFileName(file)} {string.Join(' ', args)}: {err.Trim()}");
        }
        return (process.ExitCode == 0, await stdout);
    }
}
