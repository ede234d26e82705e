namespace Slots.Topology.Run;

/// <summary>The single stack's PostgreSQL under pg_ctl: initdb once, start, stop; as the postgres user when root
/// (initdb refuses root).</summary>
public static class Postgres
{
    public static string Folder(Node node) => Path.GetDirectoryName(node.DataDir!)!;

    public static string PostmasterPid(Node node) => Path.Combine(node.DataDir!, "postmaster.pid");

    /// <summary>The postmaster's PID when it runs.</summary>
    public static int? Postmaster(Node node) => ProcTree.AlivePid(PostmasterPid(node));

    /// <summary>Starts the server unless it already runs; pg_ctl -w returns when it accepts connections.</summary>
    public static async Task UpAsync(Node node, StackOptions options, Action<string> say)
    {
        var port = node.Binds[0].Number;
        if (Postmaster(node) is not null && PortGuard.Busy(port))
        {
            say($"  postgres: already running on 127.0.0.1:{port}");
            return;
        }

        PortGuard.Need(node.Binds);
        var folder = Folder(node);
        if (!File.Exists(Path.Combine(node.DataDir!, "PG_VERSION")))
        {
            Directory.CreateDirectory(Path.Combine(folder, "sock"));
            await ChownAsync(folder);
            var init = await Tool.TryRunAsync(node.Init!, TimeSpan.FromMinutes(2));
            var initLog = Path.Combine(options.Logs, "postgres-init.log");
            await File.AppendAllTextAsync(initLog, init.Stdout + init.Stderr);
            if (init.Code != 0)
            {
                throw new StackStartException($"postgres: initdb failed; its log is {initLog}");
            }
        }

        var start = await Tool.TryRunAsync(node.Start!, options.Wait + TimeSpan.FromSeconds(30));
        var link = Path.Combine(options.Logs, "postgres.log");
        File.Delete(link);
        File.CreateSymbolicLink(link, Path.Combine(folder, "server.log"));
        if (start.Code != 0)
        {
            throw new StackStartException($"postgres: pg_ctl start failed ({start.Stderr.Trim()}); its log is {link}");
        }

        say($"  postgres: 127.0.0.1:{port} (data in {node.DataDir})");
    }

    /// <summary>pg_ctl stop: fast rolls back open transactions and stops; immediate stops at once and recovers
    /// from its WAL at the next start (the chaos soak's crash).</summary>
    public static async Task<bool> StopAsync(Node node, StackOptions options, string mode)
    {
        if (!File.Exists(PostmasterPid(node)))
        {
            return false;
        }

        var pgCtl = node.Start! with { Args = ["-D", node.DataDir!, "-m", mode, "-w", "-t", "30", "stop"] };
        var stop = await Tool.TryRunAsync(pgCtl, TimeSpan.FromSeconds(60));
        return stop.Code == 0;
    }

    /// <summary>Hands a folder to the postgres user when root.</summary>
    public static async Task ChownAsync(string path)
    {
        if (Launcher.IsRoot)
        {
            await Tool.RunAsync("chown", ["-R", "postgres:postgres", path], TimeSpan.FromMinutes(1));
        }
    }
}
