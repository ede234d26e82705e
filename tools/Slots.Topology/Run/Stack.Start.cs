namespace Slots.Topology.Run;

public sealed partial class Stack
{
    /// <summary>Starts one node unless it runs: a job runs to completion, a gate only waits, PostgreSQL goes through
    /// pg_ctl, everything else is launched detached with its PID kept.</summary>
    private async Task StartNodeAsync(Node node, CancellationToken ct)
    {
        switch (node.Kind)
        {
            case NodeKind.Gate:
                return;
            case NodeKind.Job:
                await RunJobAsync(node);
                return;
            case NodeKind.Postgres:
                await Postgres.UpAsync(node, Options, say);
                return;
        }

        if (ProcTree.AlivePid(PidFile(node.Name)) is not null)
        {
            say($"  {node.Name}: already running");
            return;
        }

        // A Patroni node's own postgres may still run (its Patroni was killed): the new Patroni takes it over,
        // demotes and rewinds it when another node leads. Any other process on the port is refused.
        var ownPostmaster = node.Kind == NodeKind.Patroni
            && ProcTree.AlivePid(Path.Combine(node.DataDir!, "postmaster.pid")) is not null;
        PortGuard.Need(ownPostmaster ? node.Binds.Skip(1) : node.Binds);
        await WriteFilesAsync(node);
        PrepareFolders(node);
        if (node.Kind == NodeKind.Patroni)
        {
            await Postgres.ChownAsync(Path.GetDirectoryName(node.DataDir!)!);
        }

        if (node.Kind == NodeKind.Haproxy)
        {
            await Haproxy.PrepareAsync(node, Options.Logs);
        }

        ct.ThrowIfCancellationRequested();
        var pid = Launcher.StartDetached(node.Start!, LogFile(node.Name), PidFile(node.Name));
        say($"  {node.Name}: starting (pid {pid}, log {LogFile(node.Name)})");
    }

    private async Task RunJobAsync(Node node)
    {
        var (code, stdout, stderr) = await Tool.TryRunAsync(node.Start!, Options.Wait);
        await File.AppendAllTextAsync(LogFile(node.Name), stdout + stderr);
        foreach (var line in stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            say("  " + line);
        }

        if (code != 0)
        {
            throw new StackStartException($"{node.Name} failed (exit {code}); its log is {LogFile(node.Name)}");
        }
    }

    /// <summary>Polls the node's health until it holds; a node with a process of its own that exits meanwhile
    /// fails at once, with its log's last lines.</summary>
    private Task WaitReadyAsync(Node node, CancellationToken ct)
    {
        if (node.Ready is Health.Done)
        {
            return Task.CompletedTask;
        }

        Func<bool>? running = node.Kind is NodeKind.Gate or NodeKind.Job or NodeKind.Postgres
            ? null
            : () => ProcTree.AlivePid(PidFile(node.Name)) is not null;
        return Waiter.WaitAsync(node.Name, token => Probe.ReadyAsync(node, token), running, LogFile(node.Name), Options.Logs, Options.Wait, ct);
    }

    private static async Task WriteFilesAsync(Node node)
    {
        foreach (var file in node.Files)
        {
            if (file.KeepIfExists && File.Exists(file.Path))
            {
                continue;
            }

            Directory.CreateDirectory(Path.GetDirectoryName(file.Path)!);
            if (File.Exists(file.Path) && file.Mode is { } mode && !mode.HasFlag(UnixFileMode.UserWrite))
            {
                SetMode(file.Path, mode | UnixFileMode.UserWrite);
            }

            await File.WriteAllTextAsync(file.Path, file.Content);
            if (file.Mode is { } fileMode)
            {
                SetMode(file.Path, fileMode);
            }

            if (file.PostgresOwned)
            {
                await Postgres.ChownAsync(file.Path);
            }
        }
    }

    private static void SetMode(string path, UnixFileMode mode)
    {
        // The stack runs on Linux only (setsid, /proc, runuser); the guard tells the analyzer so.
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(path, mode);
        }
    }

    /// <summary>The folders a node's program expects to find: RabbitMQ's database and log folders, the parent of
    /// etcd's data folder (etcd makes its own), the scheduler's SMS sink folder.</summary>
    private void PrepareFolders(Node node)
    {
        if (node.Kind == NodeKind.RabbitMq)
        {
            Directory.CreateDirectory(node.DataDir!);
            if (node.Start!.EffectiveEnv().TryGetValue("RABBITMQ_LOG_BASE", out var logs))
            {
                Directory.CreateDirectory(logs);
            }
        }
        else if (node.DataDir is not null)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(node.DataDir)!);
        }

        if (node.Kind == NodeKind.Scheduler)
        {
            Directory.CreateDirectory(Path.Combine(Options.StateDir, "sms"));
        }
    }
}
