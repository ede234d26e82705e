namespace Slots.Topology.Run;

public sealed partial class Stack
{
    /// <summary>The process ids of one part, or null when it is not running: a PID file's process; HAProxy's master
    /// and workers; PostgreSQL's postmaster and its backends; a RabbitMQ node's script and its Erlang VM. On the HA
    /// stack pgN is Patroni and its postgres, pgN-postgres the postmaster alone, pgN-patroni Patroni alone, and
    /// primary, primary-postgres, primary-patroni the same for whichever node leads now.</summary>
    public async Task<IReadOnlyList<int>?> PidsAsync(string part, CancellationToken ct)
    {
        if (Options.Shape == Shape.Ha && part.StartsWith("primary", StringComparison.Ordinal))
        {
            var leader = await PrimaryAsync(ct);
            return leader is null ? null : await PidsAsync(leader + part["primary".Length..], ct);
        }

        var suffix = part.EndsWith("-postgres", StringComparison.Ordinal) ? "-postgres"
            : part.EndsWith("-patroni", StringComparison.Ordinal) ? "-patroni" : "";
        var node = Part(part[..^suffix.Length]);
        if (node.Kind == NodeKind.Patroni)
        {
            var patroni = ProcTree.AlivePid(PidFile(node.Name));
            var postmaster = ProcTree.AlivePid(Path.Combine(node.DataDir!, "postmaster.pid"));
            List<int> all = suffix switch
            {
                "-postgres" => postmaster is { } pm ? [pm] : [],
                "-patroni" => patroni is { } p ? [p] : [],
                _ => [.. Maybe(patroni), .. postmaster is { } pm ? [pm, .. ProcTree.Children(pm)] : Array.Empty<int>()],
            };
            return all.Count == 0 ? null : all;
        }

        if (suffix.Length > 0)
        {
            throw new StackUsageException($"unknown part {part}");
        }

        return node.Pid switch
        {
            PidSource.Postmaster => Postgres.Postmaster(node) is { } pm ? [pm, .. ProcTree.Children(pm)] : null,
            PidSource.WithChildren => ProcTree.AlivePid(PidFile(node.Name)) is { } pid ? [pid, .. ProcTree.Children(pid)] : null,
            PidSource.Beam => ProcTree.AlivePid(PidFile(node.Name)) is { } pid
                ? [.. new[] { pid }.Concat(ProcTree.Children(pid)).Concat(ProcTree.Beam(pid)).Distinct()]
                : null,
            PidSource.PidFile => ProcTree.AlivePid(PidFile(node.Name)) is { } pid ? [pid] : null,
            _ => throw new StackUsageException($"{part} runs no process"),
        };
    }

    /// <summary>Starts one part again and waits for its own health (the chaos soak's heal, faster than `up`), after
    /// the jobs it is made from that need nothing running (the local CA's certificate for HAProxy); on
    /// the HA stack a Patroni node until the cluster has a synchronous standby again, a broker until the cluster
    /// runs all its nodes.</summary>
    public async Task StartAsync(string part, CancellationToken ct)
    {
        var node = Part(part);
        if (node.Kind is NodeKind.Job or NodeKind.Gate)
        {
            throw new StackUsageException($"unknown part {part}");
        }

        Directory.CreateDirectory(Options.Logs);
        Directory.CreateDirectory(Options.Pids);
        // What the part is made from first, where that needs nothing running: HAProxy's certificate from the local CA.
        foreach (var job in node.After.Select(d => Topology[d.Node]).Where(d => d.Kind == NodeKind.Job && d.After.Count == 0))
        {
            await RunJobAsync(job);
        }

        await StartNodeAsync(node, ct);
        await WaitReadyAsync(node, ct);
        var gate = node.Kind switch
        {
            NodeKind.Patroni => "pg-synced",
            NodeKind.RabbitMq when Options.Shape == Shape.Ha => "rabbit-cluster",
            _ => null,
        };
        if (gate is not null)
        {
            await WaitReadyAsync(Topology[gate], ct);
        }
    }

    /// <summary>Stops one part by its PID file (the restore drill pauses the scheduler).</summary>
    public Task<bool> StopAsync(string part) => Stopper.TermThenKillAsync(Part(part).Name, PidFile(part), say);

    public async Task<string?> PrimaryAsync(CancellationToken ct)
    {
        var ports = Topology.Nodes.Where(n => n.Kind == NodeKind.Patroni).Select(n => n.Binds[1].Number).ToList();
        return ports.Count == 0 ? null : await PatroniCluster.ReadAsync(_http, ports, ct) is { } members ? PatroniCluster.Leader(members) : null;
    }

    public async Task PgStopAsync(string mode, CancellationToken ct)
    {
        if (mode is not ("fast" or "immediate"))
        {
            throw new StackUsageException("pg-stop takes fast or immediate");
        }

        var node = Topology.Nodes.FirstOrDefault(n => n.Kind == NodeKind.Postgres)
            ?? throw new StackUsageException("pg-stop is for the single stack's PostgreSQL; the HA stack's nodes are stopped through Patroni (stop pgN)");
        await Postgres.StopAsync(node, Options, mode);
    }

    /// <summary>Stops everything and deletes the state folder and PostgreSQL's data: a fresh stack next time.</summary>
    public async Task WipeAsync(CancellationToken ct)
    {
        await DownAsync(ct);
        foreach (var folder in new[] { Options.StateDir, Options.PgFolder }.Where(Directory.Exists))
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    /// <summary>SIGUSR2 to each HAProxy master: new workers read the configuration and the certificate again, the
    /// old ones finish what they have. Then the served certificate must be the file's. --renew first issues a new
    /// one from the local CA (scripts/tls.sh renew).</summary>
    public async Task ReloadCertAsync(bool renew, CancellationToken ct)
    {
        if (renew)
        {
            if (Options.TlsCert is not null)
            {
                throw new StackUsageException($"--renew renews the local CA's certificate; {Options.TlsCert} is renewed by its own CA (certbot renew).");
            }

            var tls = Topology.Nodes.Single(n => n.Name == "tls").Start!;
            var (code, stdout, stderr) = await Tool.TryRunAsync(tls with { Args = ["renew", Options.Tls] }, Options.Wait);
            foreach (var line in stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries))
            {
                say("  " + line);
            }

            if (code != 0)
            {
                throw new StackStartException($"scripts/tls.sh renew failed: {stderr.Trim()}");
            }
        }

        var want = LocalCa.Serial(Options.ServedCert);
        foreach (var node in Topology.Nodes.Where(n => n.Kind == NodeKind.Haproxy))
        {
            var master = ProcTree.AlivePid(PidFile(node.Name)) ?? throw new StackStartException($"{node.Name} is not running.");
            await Stopper.SignalAsync("USR2", master);
            var front = node.Binds[0].Number;
            await Waiter.WaitAsync(
                node.Name, async token => await LocalCa.ServedAsync(front, token) == want, null, LogFile(node.Name), Options.Logs, Options.Wait, ct);
            say($"  {node.Name}: serves certificate {want}");
        }
    }

    private Node Part(string part) =>
        Topology.Nodes.FirstOrDefault(n => n.Name == part && n.Kind is not (NodeKind.Job or NodeKind.Gate))
        ?? throw new StackUsageException($"unknown part {part}");

    private static IEnumerable<int> Maybe(int? pid) => pid is { } p ? [p] : [];
}
