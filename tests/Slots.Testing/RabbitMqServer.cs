using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace Slots.Testing;

/// <summary>
/// A throwaway RabbitMQ node from Debian's rabbitmq-server: its own node name, AMQP port,
/// distribution port and epmd port (all free loopback ports), its own data, log and config folder
/// under temp, its own HOME for the Erlang cookie. Never touches a node the package may have
/// started. <see cref="StopAsync"/> and <see cref="StartAsync"/> restart it on the same data (for
/// the broker-restart tests); the process tree and its epmd are killed when the test process exits.
/// <see cref="RabbitMqCluster"/> starts several of them as one cluster.
/// </summary>
public sealed class RabbitMqServer : IAsyncDisposable
{
    private static readonly Lazy<Task<RabbitMqServer>> SharedServer = new(() => CreateAsync());

    private readonly string _bin;
    private readonly string _folder;
    private readonly string _home;
    private readonly int _distPort;
    private readonly int _ctlDistPort;
    private readonly int _epmdPort;
    private readonly bool _ownEpmd;
    private Process? _process;

    /// <param name="home">HOME, where the Erlang cookie is: the node's folder, or one shared by a cluster.</param>
    /// <param name="epmdPort">The node's own epmd (asked to go with it), or a cluster's (the cluster stops it).</param>
    private RabbitMqServer(string bin, string folder, string home, string name, int epmdPort, bool ownEpmd)
    {
        _bin = bin;
        _folder = folder;
        _home = home;
        Port = FreePort();
        _distPort = FreePort();
        // The CLI's own distribution ports default to 35672-35682 for every node on the machine.
        _ctlDistPort = FreePort();
        _epmdPort = epmdPort;
        _ownEpmd = ownEpmd;
        NodeName = $"slots-test-{System.Environment.ProcessId}-{name}@localhost";
    }

    public int Port { get; }
    public string NodeName { get; }

    /// <summary>ConnectionStrings:RabbitMq for this node (the default guest user, allowed on loopback).</summary>
    public string AmqpUri => $"amqp://guest:guest@127.0.0.1:{Port}/";

    /// <summary>One node shared by the run; tests keep apart by using queues of their own.</summary>
    public static Task<RabbitMqServer> SharedAsync() => SharedServer.Value;

    /// <summary>A node of the caller's own (for tests that stop and start it).</summary>
    public static async Task<RabbitMqServer> CreateAsync()
    {
        var bin = Binaries();
        var folder = Directory.CreateTempSubdirectory("slots-rabbitmq-").FullName;
        var server = new RabbitMqServer(bin, folder, home: folder, Path.GetFileName(folder).Replace('.', '-'), FreePort(), ownEpmd: true);
        await server.WriteConfigurationAsync();
        AppDomain.CurrentDomain.ProcessExit += (_, _) => server.Kill();
        await server.StartAsync();
        return server;
    }

    /// <summary>A cluster's node, not started: the cluster's cookie (in <paramref name="home"/>) and epmd.</summary>
    internal static async Task<RabbitMqServer> CreateMemberAsync(string bin, string folder, string home, string name, int epmdPort)
    {
        Directory.CreateDirectory(folder);
        var server = new RabbitMqServer(bin, folder, home, name, epmdPort, ownEpmd: false);
        await server.WriteConfigurationAsync();
        AppDomain.CurrentDomain.ProcessExit += (_, _) => server.Kill();
        return server;
    }

    internal static string Binaries() => FindBinaries() ?? throw new RabbitMqUnavailableException(
        "rabbitmq-server not found; install it (apt-get install rabbitmq-server) or set SLOTS_RABBITMQ_BIN to its sbin folder.");

    private async Task WriteConfigurationAsync()
    {
        await File.WriteAllTextAsync(Path.Combine(_folder, "rabbitmq.conf"), $"""
            listeners.tcp.default = 127.0.0.1:{Port}
            distribution.listener.interface = 127.0.0.1
            disk_free_limit.absolute = 50MB
            log.console = false
            log.file.level = warning
            """);
        await File.WriteAllTextAsync(Path.Combine(_folder, "enabled_plugins"), "[].");
        await File.WriteAllTextAsync(Path.Combine(_folder, "rabbitmq-env.conf"), "");
    }

    /// <summary>Starts the node (again, on the same data) and waits until it accepts AMQP connections.</summary>
    public async Task StartAsync()
    {
        var start = new ProcessStartInfo(Path.Combine(_bin, "rabbitmq-server"))
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = _folder,
        };
        SetEnvironment(start);
        _process = Process.Start(start) ?? throw new RabbitMqUnavailableException("rabbitmq-server did not start");
        var log = Path.Combine(_folder, "server.out");
        _ = _process.StandardOutput.BaseStream.CopyToAsync(File.Open(log, FileMode.Append, FileAccess.Write, FileShare.ReadWrite));
        _ = _process.StandardError.ReadToEndAsync();
        var deadline = Stopwatch.StartNew();
        while (!await AcceptsAsync())
        {
            if (_process.HasExited)
            {
                throw new RabbitMqUnavailableException($"rabbitmq-server exited with {_process.ExitCode}; see {log}");
            }
            if (deadline.Elapsed > TimeSpan.FromSeconds(90))
            {
                Kill();
                throw new RabbitMqUnavailableException($"rabbitmq-server did not open port {Port} within 90 s; see {log}");
            }
            await Task.Delay(200);
        }
        // The port opens before the rabbit application has booted (a restarted node on the same data
        // takes longer): wait for it, or the connectivity check fails with "requires the 'rabbit' app".
        await ToolAsync("rabbitmqctl", ["-q", "-n", NodeName, "await_startup"], TimeSpan.FromSeconds(60));
        await ToolAsync("rabbitmq-diagnostics", ["-q", "-n", NodeName, "check_port_connectivity"], TimeSpan.FromSeconds(60));
    }

    /// <summary>Stops the node cleanly (rabbitmqctl stop), killing it if it does not go within 30 s. Its data stays.</summary>
    public async Task StopAsync()
    {
        var process = _process;
        if (process is null || process.HasExited)
        {
            return;
        }
        try
        {
            await ToolAsync("rabbitmqctl", ["-q", "-n", NodeName, "stop"], TimeSpan.FromSeconds(30));
            using var wait = new CancellationTokenSource(TimeSpan.FromSeconds(30));
            await process.WaitForExitAsync(wait.Token);
        }
        catch (Exception ex) when (ex is InvalidOperationException or OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
        }
        _process = null;
    }

    /// <summary>rabbitmqctl against this node; returns its output.</summary>
    public Task<string> CtlAsync(params string[] args) => ToolAsync("rabbitmqctl", ["-q", "-n", NodeName, .. args], TimeSpan.FromSeconds(60));

    /// <summary>Makes this (running) node a member of <paramref name="seed"/>'s cluster: stop_app, join_cluster, start_app.</summary>
    internal async Task JoinAsync(RabbitMqServer seed)
    {
        await CtlAsync("stop_app");
        await CtlAsync("join_cluster", seed.NodeName);
        await CtlAsync("start_app");
        await CtlAsync("await_startup");
    }

    /// <summary>True while the node's Erlang VM runs.</summary>
    public bool Running => BeamProcessId() is not null;

    /// <summary>
    /// SIGKILL of the node's Erlang VM (beam.smp, a child of the start script's shell), as in a
    /// crash: no clean shutdown, its connections drop mid-frame. Returns when the signal is sent.
    /// </summary>
    public void KillVm()
    {
        var beam = BeamProcessId() ?? throw new InvalidOperationException($"{NodeName} has no running beam.smp");
        using var process = Process.GetProcessById(beam);
        process.Kill(); // SIGKILL on Unix
    }

    /// <summary>
    /// SIGSTOP of the node's Erlang VM: its sockets stay open and nothing answers on them, as with a
    /// node its host froze or a partition that drops packets. <see cref="ThawVmAsync"/> lets it run again.
    /// </summary>
    public Task FreezeVmAsync() => SignalVmAsync("STOP");

    /// <summary>SIGCONT of the node's Erlang VM after <see cref="FreezeVmAsync"/>.</summary>
    public Task ThawVmAsync() => SignalVmAsync("CONT");

    private async Task SignalVmAsync(string signal)
    {
        var beam = BeamProcessId() ?? throw new InvalidOperationException($"{NodeName} has no running beam.smp");
        using var kill = Process.Start(new ProcessStartInfo("kill", ["-" + signal, beam.ToString(System.Globalization.CultureInfo.InvariantCulture)])
        {
            UseShellExecute = false,
        })!;
        await kill.WaitForExitAsync();
        if (kill.ExitCode != 0)
        {
            throw new InvalidOperationException($"kill -{signal} {beam} exited with {kill.ExitCode}");
        }
    }

    /// <summary>The beam.smp under the start script, found through /proc (the script's PID is a shell's).</summary>
    private int? BeamProcessId()
    {
        if (_process is not { HasExited: false } root)
        {
            return null;
        }
        var children = new Dictionary<int, List<(int Pid, string Name)>>();
        foreach (var dir in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(dir), out var pid))
            {
                continue;
            }
            string stat;
            try
            {
                stat = File.ReadAllText(Path.Combine(dir, "stat"));
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                continue; // gone meanwhile
            }
            // "pid (comm) state ppid …"; comm may hold spaces and parentheses, so read from the last ')'.
            var close = stat.LastIndexOf(')');
            var name = stat[(stat.IndexOf('(', StringComparison.Ordinal) + 1)..close];
            var fields = stat[(close + 2)..].Split(' ');
            if (fields[0] == "Z")
            {
                continue; // killed, not yet reaped by the script's shell
            }
            var parent = int.Parse(fields[1], System.Globalization.CultureInfo.InvariantCulture);
            if (!children.TryGetValue(parent, out var list))
            {
                children[parent] = list = [];
            }
            list.Add((pid, name));
        }
        var pending = new Queue<int>([root.Id]);
        while (pending.TryDequeue(out var pid))
        {
            foreach (var (child, name) in children.GetValueOrDefault(pid) ?? [])
            {
                if (name == "beam.smp")
                {
                    return child;
                }
                pending.Enqueue(child);
            }
        }
        return null;
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        Kill();
    }

    /// <summary>The last resort (process exit), and a cluster's way to stop: the node's process tree, its own epmd, its folder.</summary>
    internal void Kill()
    {
        try
        {
            if (_process is { HasExited: false })
            {
                _process.Kill(entireProcessTree: true);
                _process.WaitForExit(10_000);
            }
        }
        catch (InvalidOperationException)
        {
        }
        // epmd daemonizes away from the process tree; a single node's is its alone (its own port), so
        // ask it to go. A cluster's epmd is the cluster's to stop.
        if (_ownEpmd)
        {
            try
            {
                var epmd = new ProcessStartInfo("epmd") { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
                epmd.ArgumentList.Add("-port");
                epmd.ArgumentList.Add(_epmdPort.ToString(System.Globalization.CultureInfo.InvariantCulture));
                epmd.ArgumentList.Add("-kill");
                using var kill = Process.Start(epmd);
                kill?.WaitForExit(10_000);
            }
            catch (System.ComponentModel.Win32Exception)
            {
                // no epmd on PATH: nothing of ours to stop
            }
        }
        try
        {
            Directory.Delete(_folder, recursive: true);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }

    private void SetEnvironment(ProcessStartInfo start)
    {
        var env = start.Environment;
        env["HOME"] = _home; // the Erlang cookie lives here
        env["RABBITMQ_NODENAME"] = NodeName;
        env["RABBITMQ_NODE_IP_ADDRESS"] = "127.0.0.1";
        env["RABBITMQ_NODE_PORT"] = Port.ToString(System.Globalization.CultureInfo.InvariantCulture);
        env["RABBITMQ_DIST_PORT"] = _distPort.ToString(System.Globalization.CultureInfo.InvariantCulture);
        env["RABBITMQ_CTL_DIST_PORT_MIN"] = _ctlDistPort.ToString(System.Globalization.CultureInfo.InvariantCulture);
        env["RABBITMQ_CTL_DIST_PORT_MAX"] = Math.Min(_ctlDistPort + 10, 65535).ToString(System.Globalization.CultureInfo.InvariantCulture);
        env["ERL_EPMD_PORT"] = _epmdPort.ToString(System.Globalization.CultureInfo.InvariantCulture);
        env["ERL_EPMD_ADDRESS"] = "127.0.0.1";
        env["RABBITMQ_MNESIA_BASE"] = Path.Combine(_folder, "mnesia");
        env["RABBITMQ_LOG_BASE"] = Path.Combine(_folder, "log");
        env["RABBITMQ_CONFIG_FILE"] = Path.Combine(_folder, "rabbitmq.conf");
        env["RABBITMQ_ENABLED_PLUGINS_FILE"] = Path.Combine(_folder, "enabled_plugins");
        env["RABBITMQ_CONF_ENV_FILE"] = Path.Combine(_folder, "rabbitmq-env.conf");
        env["RABBITMQ_PID_FILE"] = Path.Combine(_folder, "rabbitmq.pid");
    }

    private async Task<bool> AcceptsAsync()
    {
        using var client = new TcpClient();
        try
        {
            await client.ConnectAsync(IPAddress.Loopback, Port).WaitAsync(TimeSpan.FromSeconds(2));
            return true;
        }
        catch (Exception ex) when (ex is SocketException or TimeoutException)
        {
            return false;
        }
    }

    private Task<string> ToolAsync(string tool, string[] args, TimeSpan timeout) =>
        Tool.RunAsync(Path.Combine(_bin, tool), args, timeout, SetEnvironment);

    private static string? FindBinaries()
    {
        var configured = System.Environment.GetEnvironmentVariable("SLOTS_RABBITMQ_BIN");
        if (!string.IsNullOrEmpty(configured))
        {
            return File.Exists(Path.Combine(configured, "rabbitmq-server")) ? configured : null;
        }
        // Debian's /usr/sbin entries are a wrapper that switches to the rabbitmq user; these are the real scripts.
        const string debian = "/usr/lib/rabbitmq/bin";
        return File.Exists(Path.Combine(debian, "rabbitmq-server")) ? debian : null;
    }

    private static int FreePort()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        return ((IPEndPoint)probe.LocalEndpoint).Port;
    }
}

/// <summary>
/// A throwaway RabbitMQ cluster of <see cref="RabbitMqServer"/> nodes: one private HOME with one
/// cookie for all, one epmd of its own (started here on a free port, stopped by its PID), per node
/// its own name, ports and data. The nodes start together, then each joins the first (stop_app,
/// join_cluster, start_app). Disposing kills every node and the epmd and deletes the data; so does
/// the test process's exit.
/// </summary>
public sealed class RabbitMqCluster : IAsyncDisposable
{
    private readonly string _folder;
    private readonly ChildProcess _epmd;
    private readonly List<RabbitMqServer> _nodes = [];

    private RabbitMqCluster(string folder, ChildProcess epmd)
    {
        _folder = folder;
        _epmd = epmd;
    }

    public IReadOnlyList<RabbitMqServer> Nodes => _nodes;

    /// <summary>ConnectionStrings:RabbitMq naming every node: their amqp:// URIs, comma-separated.</summary>
    public string ConnectionString => string.Join(',', _nodes.Select(n => n.AmqpUri));

    public static async Task<RabbitMqCluster> CreateAsync(int size = 3)
    {
        if (!OperatingSystem.IsLinux())
        {
            throw new RabbitMqUnavailableException("the test cluster needs Linux: it finds each node's Erlang VM through /proc");
        }
        var bin = RabbitMqServer.Binaries();
        var folder = Directory.CreateTempSubdirectory("slots-rabbitmq-cluster-").FullName;
        var home = Directory.CreateDirectory(Path.Combine(folder, "home")).FullName;
        var cookie = Path.Combine(home, ".erlang.cookie");
        await File.WriteAllTextAsync(cookie, Guid.NewGuid().ToString("N"));
        File.SetUnixFileMode(cookie, UnixFileMode.UserRead); // Erlang refuses a cookie others can read
        // Started here, before any node, so that no node daemonizes one: the cluster holds its PID.
        var epmdPort = ChildProcess.FreePort();
        var epmd = ChildProcess.Start("epmd", ["-port", epmdPort.ToString(System.Globalization.CultureInfo.InvariantCulture), "-address", "127.0.0.1"],
            new Dictionary<string, string>(), Path.Combine(folder, "epmd.log"));
        var cluster = new RabbitMqCluster(folder, epmd);
        try
        {
            await WaitForPortAsync(epmdPort, epmd);
            var name = Path.GetFileName(folder).Replace('.', '-');
            for (var i = 1; i <= size; i++)
            {
                cluster._nodes.Add(await RabbitMqServer.CreateMemberAsync(bin, Path.Combine(folder, $"node{i}"), home, $"{name}-{i}", epmdPort));
            }
            await Task.WhenAll(cluster._nodes.Select(n => n.StartAsync()));
            foreach (var node in cluster._nodes.Skip(1))
            {
                await node.JoinAsync(cluster._nodes[0]);
            }
            return cluster;
        }
        catch
        {
            await cluster.DisposeAsync();
            throw;
        }
    }

    /// <summary>The node that leads the quorum queue <paramref name="queue"/> now, asked of a running node.</summary>
    public async Task<RabbitMqServer> LeaderOfAsync(string queue)
    {
        var asked = _nodes.First(n => n.Running);
        var lines = await asked.CtlAsync("list_queues", "--no-table-headers", "name", "leader");
        var leader = lines.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(line => line.Split('\t'))
            .SingleOrDefault(cells => cells is [var name, _] && name == queue)?[1]
            ?? throw new InvalidOperationException($"{asked.NodeName} lists no queue {queue}: {lines}");
        return _nodes.Single(n => n.NodeName == leader);
    }

    public async ValueTask DisposeAsync()
    {
        // Killed, not stopped: the data goes with them, and a clean stop of each costs seconds.
        foreach (var node in _nodes)
        {
            node.Kill();
        }
        await _epmd.DisposeAsync();
        try
        {
            Directory.Delete(_folder, recursive: true);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }

    private static async Task WaitForPortAsync(int port, ChildProcess process)
    {
        var limit = Stopwatch.StartNew();
        while (true)
        {
            using var client = new TcpClient();
            try
            {
                await client.ConnectAsync(IPAddress.Loopback, port).WaitAsync(TimeSpan.FromSeconds(2));
                return;
            }
            catch (Exception ex) when (ex is SocketException or TimeoutException)
            {
                if (process.HasExited || limit.Elapsed > TimeSpan.FromSeconds(10))
                {
                    throw new RabbitMqUnavailableException($"epmd did not listen on port {port}: {process.Tail()}");
                }
                await Task.Delay(50);
            }
        }
    }
}

/// <summary>RabbitMQ cannot run on this machine; the message says why.</summary>
public sealed class RabbitMqUnavailableException(string message) : ServerUnavailableException(message);
