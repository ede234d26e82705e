namespace Slots.Topology.Run;

/// <summary>A described stack, driven: `up` starts every node once what it waits for is met (the nodes of one
/// wave together), `down` stops them in reverse. The parts, status and pid look-ups are in the partial files
/// beside this one. Progress lines go to <paramref name="say"/>, as the scripts printed them.</summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Naming", "CA1711", Justification = "The loopback stack's name in the docs and ./slots; it is no collection.")]
public sealed partial class Stack(StackOptions options, Action<string> say) : IStackControl, IDisposable
{
    private readonly HttpClient _http = Probes.NewClient();

    public Topology Topology { get; } = Topology.Describe(options);

    public StackOptions Options => Topology.Options;

    private Probes Probe => new(Topology, _http);

    /// <summary>The stack of <paramref name="options"/> with root's PostgreSQL folder settled (see
    /// <see cref="StateFolder.WithPostgresFolderAsync"/>).</summary>
    public static async Task<Stack> OpenAsync(StackOptions options, Action<string> say) =>
        new(await StateFolder.WithPostgresFolderAsync(options), say);

    public async Task UpAsync(CancellationToken ct)
    {
        Directory.CreateDirectory(Options.Logs);
        Directory.CreateDirectory(Options.Pids);
        StateFolder.Save(Options);
        if (Options.TlsCert is { } cert && !File.Exists(cert))
        {
            throw new StackStartException($"SLOTS_TLS_CERT={cert} cannot be read.");
        }

        if (Options.Build)
        {
            await Build.RunAsync(Options, say, ct);
        }

        say($"Starting the {(Options.Shape == Shape.Ha ? "high-availability " : "")}stack in {Options.StateDir}");
        if (Options.Shape == Shape.Ha && Options.Backup)
        {
            await Backup.PrepareAsync(Options);
        }

        var started = Topology.Nodes.ToDictionary(n => n.Name, _ => new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously));
        var ready = Topology.Nodes.ToDictionary(n => n.Name, _ => new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously));
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(ct);
        var running = Topology.Nodes.Select(n => BringUpAsync(n, started, ready, stop.Token)).ToList();
        Exception? first = null;
        while (running.Count > 0)
        {
            var done = await Task.WhenAny(running);
            running.Remove(done);
            if (done.IsFaulted && first is null)
            {
                first = done.Exception!.GetBaseException();
                await stop.CancelAsync();
            }
        }

        if (first is not null)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(first).Throw();
        }

        ct.ThrowIfCancellationRequested();
    }

    /// <summary>One node: wait for what it needs, start it, wait until it is healthy.</summary>
    private async Task BringUpAsync(
        Node node, Dictionary<string, TaskCompletionSource> started, Dictionary<string, TaskCompletionSource> ready, CancellationToken ct)
    {
        foreach (var dependency in node.After)
        {
            var met = dependency.Condition == Condition.Started ? started[dependency.Node] : ready[dependency.Node];
            await met.Task.WaitAsync(ct);
        }

        await StartNodeAsync(node, ct);
        started[node.Name].TrySetResult();
        await WaitReadyAsync(node, ct);
        // Once a leader and a synchronous standby run, the stanza the nodes archive into (before the broker starts,
        // as the script has it: the apps' first writes are archived).
        if (node.Name == "pg-synced" && Options.Backup)
        {
            var leader = await PrimaryAsync(ct) ?? throw new StackStartException("pgbackrest: no primary to create the stanza on");
            await Backup.CreateStanzaAsync(Options, leader, say);
        }

        ready[node.Name].TrySetResult();
    }

    public async Task DownAsync(CancellationToken ct)
    {
        say($"Stopping the {(Options.Shape == Shape.Ha ? "high-availability " : "")}stack in {Options.StateDir}");
        var patroniStopped = false;
        foreach (var wave in Topology.Waves().Reverse())
        {
            await Task.WhenAll(wave
                .Where(n => n.Stop is not (StopStyle.Nothing or StopStyle.PatroniReplicasFirst))
                .Select(StopNodeAsync));
            if (!patroniStopped && wave.Any(n => n.Stop == StopStyle.PatroniReplicasFirst))
            {
                await StopPatroniAsync(ct);
                patroniStopped = true;
            }
        }
    }

    private async Task StopNodeAsync(Node node)
    {
        if (node.Stop == StopStyle.PgCtlFast)
        {
            if (await Postgres.StopAsync(node, Options, "fast"))
            {
                say("  postgres stopped");
            }

            return;
        }

        await Stopper.TermThenKillAsync(node.Name, PidFile(node.Name), say);
    }

    /// <summary>The replicas first, the leader last, so nothing fails over while the cluster stops; then any
    /// postgres whose Patroni was killed (it outlives it, in a session of its own) gets SIGINT (fast shutdown).</summary>
    private async Task StopPatroniAsync(CancellationToken ct)
    {
        var nodes = Topology.Nodes.Where(n => n.Stop == StopStyle.PatroniReplicasFirst).ToList();
        var leader = await PrimaryAsync(ct);
        await Task.WhenAll(nodes.Where(n => n.Name != leader).Select(n => Stopper.TermThenKillAsync(n.Name, PidFile(n.Name), say)));
        if (leader is not null)
        {
            await Stopper.TermThenKillAsync(leader, PidFile(leader), say);
        }

        foreach (var node in nodes)
        {
            if (ProcTree.AlivePid(Path.Combine(node.DataDir!, "postmaster.pid")) is { } orphan)
            {
                await Stopper.SignalAsync("INT", orphan);
                say($"  {node.Name}'s postgres stopped");
            }
        }
    }

    public void Dispose() => _http.Dispose();

    private string PidFile(string name) => Path.Combine(Options.Pids, $"{name}.pid");

    private string LogFile(string name) => Path.Combine(Options.Logs, $"{name}.log");
}
