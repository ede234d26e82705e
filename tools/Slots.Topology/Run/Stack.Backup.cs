using System.Diagnostics;
using System.Globalization;

namespace Slots.Topology.Run;

/// <summary>Backups and point-in-time restore of the HA stack with pgBackRest. What they guarantee, the figures and
/// the commands are in docs/reliability.md. Every node archives its WAL while it is primary (its patroni.yml's
/// archive_command), so the repository holds what a restore to any moment after the first backup needs.</summary>
public sealed partial class Stack
{
    private static readonly TimeSpan BackupLimit = TimeSpan.FromHours(1);

    /// <summary>A backup (full, incr or diff) from the node that leads now into the repository.</summary>
    public async Task BackupAsync(string type, CancellationToken ct)
    {
        if (type is not ("full" or "incr" or "diff"))
        {
            throw new StackUsageException("--type is full or incr (or diff)");
        }

        NeedBackups("Backups are");
        var leader = await PrimaryAsync(ct) ?? throw new StackStartException("No PostgreSQL primary: is the HA stack up? (./slots stack status)");
        var clock = Stopwatch.StartNew();
        if (!await PgBackRestAsync(BackupSettings.On(Options, BackupSettings.NodeNumber(leader), "backup", $"--type={type}")))
        {
            throw new StackStartException($"Backup failed; see {BackupLog} and {BackupSettings.LogPath(Options)}/");
        }

        say($"Backup ({type}) from {leader} done in {Seconds(clock.Elapsed)} s into {BackupSettings.Repo(Options)}, stanza {BackupSettings.Stanza(Options)}.");
        var info = await Tool.TryRunAsync(BackupSettings.OnRepository(Options, "info", "--output=text"), TimeSpan.FromMinutes(1));
        foreach (var line in info.Stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries).TakeLast(8))
        {
            say("  " + line);
        }
    }

    /// <summary>The cluster as it was at <paramref name="target"/> (PostgreSQL's timestamptz syntax): the apps and
    /// every node stop, Patroni's record of the cluster goes, the leader's files come back from the repository and
    /// replay WAL to the target, then it starts alone and the replicas copy it afresh.</summary>
    public async Task RestoreAsync(string target, CancellationToken ct)
    {
        NeedBackups("Point-in-time restore is");
        var clock = Stopwatch.StartNew();
        var leader = await PrimaryAsync(ct) ?? Options.RestoreNode;
        var node = Topology[leader];
        var n = BackupSettings.NodeNumber(leader);
        say($"Restoring the cluster to {target} on {leader} ({node.DataDir})");
        // The WAL written up to now goes to the repository first: a target a moment ago needs the segment still open.
        say(await PgBackRestAsync(BackupSettings.On(Options, n, "check"))
            ? "  the latest WAL is in the repository"
            : "  the primary could not switch WAL (is it down?): the restore reaches what was archived");

        // Nothing writes while the data go back: the apps first, then the replicas, the leader last.
        foreach (var app in Topology.Nodes.Where(x => x.Kind is NodeKind.Api or NodeKind.Scheduler))
        {
            await Stopper.TermThenKillAsync(app.Name, PidFile(app.Name), say);
        }

        await StopPatroniAsync(ct);
        foreach (var pg in PatroniNodes().Where(x => File.Exists(Path.Combine(x.DataDir!, "postmaster.pid"))))
        {
            await Tool.TryRunAsync(PgCtl("-D", pg.DataDir!, "-m", "fast", "-w", "stop"), TimeSpan.FromMinutes(1));
        }

        // Patroni's record in etcd goes, so the restored node starts the cluster again with its own system
        // identifier and history (Patroni takes a non-empty data folder as the new cluster then).
        var config = Path.Combine(PatroniSettings.NodeFolder(Options, 1), "patroni.yml");
        if (!await PgBackRestAsync(new Command("sh", ["-c", "printf 'slots\\nYes I am aware\\n' | patronictl -c \"$0\" remove slots", config], [])))
        {
            throw new StackStartException($"  patronictl remove failed; see {BackupLog}");
        }

        var stopped = clock.Elapsed;
        if (!await PgBackRestAsync(BackupSettings.OnRepository(Options,
            $"--pg1-path={node.DataDir}", "restore", "--delta", "--type=time", $"--target={target}", "--target-action=promote")))
        {
            throw new StackStartException($"  pgbackrest restore failed; see {BackupLog}");
        }

        var restored = clock.Elapsed;
        say($"  files restored in {Seconds(restored - stopped)} s; replaying WAL to {target}");
        await ReplayAsync(node, n, ct);
        var recovered = clock.Elapsed;
        say($"  WAL replayed and promoted in {Seconds(recovered - restored)} s");

        // The leader first, alone, with its restored data; the replicas copy it afresh (their data lie past the target).
        await StartNodeAsync(node, ct);
        await WaitReadyAsync(node, ct);
        var proxy = new Health.HaproxyUp(Options.Ports.HaproxyStats(1), "postgres", 1);
        await Waiter.WaitAsync("a primary behind HAProxy", token => Probe.ReadyAsync(node with { Ready = proxy }, token), null,
            LogFile("haproxy1"), Options.Logs, Options.Wait, ct);
        var writable = clock.Elapsed;
        foreach (var replica in PatroniNodes().Where(x => x.Name != leader))
        {
            if (Directory.Exists(replica.DataDir))
            {
                Directory.Delete(replica.DataDir!, recursive: true);
            }

            await StartNodeAsync(replica, ct);
        }

        var apps = Topology.Nodes.Where(x => x.Kind is NodeKind.Api or NodeKind.Scheduler).ToList();
        foreach (var app in apps)
        {
            await StartNodeAsync(app, ct);
        }

        await Task.WhenAll(apps.Select(app => WaitReadyAsync(app, ct)));

        var serving = clock.Elapsed;
        await WaitReadyAsync(Topology["pg-synced"], ct);
        say($"Restored to {target}: writable after {Seconds(writable)} s, serving after {Seconds(serving)} s, "
            + $"synchronous standby after {Seconds(clock.Elapsed)} s.");
        say("Take a full backup now (./slots stack backup): the restored cluster is on a new timeline.");
    }

    /// <summary>PostgreSQL replays to the target and promotes; then the recovery settings pgBackRest wrote go, so that
    /// neither this node's next start nor the replicas copied from it recover toward the target again; and outbox ids
    /// issued after the target are skipped, so none is handed out again for another message (the SMS gateway keeps
    /// the ids it has sent as idempotency keys and would drop a new message under an old one).</summary>
    private async Task ReplayAsync(Node node, int n, CancellationToken ct)
    {
        var folder = PatroniSettings.NodeFolder(Options, n);
        var recoveryLog = Path.Combine(folder, "recovery.log"); // the postgres user writes it: the logs folder may be closed to it
        // Without a synchronous standby: the restored configuration still names the old one, and a commit would wait for it.
        var start = await Tool.TryRunAsync(
            PgCtl("-D", node.DataDir!, "-l", recoveryLog, "-o", "-c synchronous_standby_names=''", "-w", "-t", "3600", "start"), BackupLimit);
        if (start.Code != 0)
        {
            throw new StackStartException($"  recovery failed; see {recoveryLog}");
        }

        var link = LogFile($"{node.Name}-recovery");
        File.Delete(link);
        File.CreateSymbolicLink(link, recoveryLog);
        var port = Options.Ports.PgNode(n).ToString(CultureInfo.InvariantCulture);
        Task<(int Code, string Stdout, string Stderr)> Sql(string database, params string[] statements) => Tool.TryRunAsync(
            "psql", ["-h", folder, "-p", port, "-U", "postgres", "-d", database, "-tAq", .. statements.SelectMany(s => new[] { "-c", s })],
            TimeSpan.FromMinutes(1));

        await Waiter.WaitAsync(
            $"{node.Name} (recovery)", async _ => (await Sql("postgres", "SELECT pg_is_in_recovery()")).Stdout.Trim() == "f",
            () => ProcTree.AlivePid(Path.Combine(node.DataDir!, "postmaster.pid")) is not null, recoveryLog, Options.Logs, BackupLimit, ct);
        await Sql("postgres", "ALTER SYSTEM RESET restore_command", "ALTER SYSTEM RESET recovery_target_time", "ALTER SYSTEM RESET recovery_target_action");
        var gap = Options.OutboxIdGap.ToString(CultureInfo.InvariantCulture);
        var skip = await Sql("slots", "SELECT setval(pg_get_serial_sequence('outbox', 'id'), GREATEST((SELECT last_value FROM outbox_id_seq), "
            + $"(SELECT coalesce(max(id), 0) FROM outbox)) + {gap})");
        if (skip.Code != 0)
        {
            say("  no outbox in database slots: ids left as they are");
        }

        await Tool.TryRunAsync(PgCtl("-D", node.DataDir!, "-m", "fast", "-w", "stop"), TimeSpan.FromMinutes(2));
    }

    private void NeedBackups(string what)
    {
        if (Options.Shape != Shape.Ha)
        {
            throw new StackUsageException($"{what} on the high-availability stack: ./slots stack up --ha (docs/reliability.md).");
        }

        if (!Options.Backup)
        {
            throw new StackUsageException("pgBackRest is not installed, so this stack archives no WAL: apt-get install pgbackrest, then up again.");
        }
    }

    private Task<bool> PgBackRestAsync(Command command) => Backup.RunLoggedAsync(Options, command, BackupLimit);

    private Command PgCtl(params string[] args) => new(Path.Combine(Options.PgBin, "pg_ctl"), args, [], RunAs: RunAs.Postgres);

    private IEnumerable<Node> PatroniNodes() => Topology.Nodes.Where(x => x.Kind == NodeKind.Patroni);

    private string BackupLog => Backup.Log(Options);

    private static long Seconds(TimeSpan span) => (long)span.TotalSeconds;
}
