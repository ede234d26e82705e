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
/// </summary>
public sealed class RabbitMqServer : IAsyncDisposable
{
    private static readonly Lazy<Task<RabbitMqServer>> SharedServer = new(() => CreateAsync());

    private readonly string _bin;
    private readonly string _folder;
    private readonly int _distPort;
    private readonly int _epmdPort;
    private Process? _process;

    private RabbitMqServer(string bin, string folder)
    {
        _bin = bin;
        _folder = folder;
        Port = FreePort();
        _distPort = FreePort();
        _epmdPort = FreePort();
        NodeName = $"slots-test-{System.Environment.ProcessId}-{Path.GetFileName(folder).Replace('.', '-')}@localhost";
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
        var bin = FindBinaries() ?? throw new RabbitMqUnavailableException(
            "rabbitmq-server not found; install it (apt-get install rabbitmq-server) or set SLOTS_RABBITMQ_BIN to its sbin folder.");
        var folder = Directory.CreateTempSubdirectory("slots-rabbitmq-").FullName;
        var server = new RabbitMqServer(bin, folder);
        await File.WriteAllTextAsync(Path.Combine(folder, "rabbitmq.conf"), $"""
            listeners.tcp.default = 127.0.0.1:{server.Port}
            distribution.listener.interface = 127.0.0.1
            disk_free_limit.absolute = 50MB
            log.console = false
            log.file.level = warning
            """);
        await File.WriteAllTextAsync(Path.Combine(folder, "enabled_plugins"), "[].");
        await File.WriteAllTextAsync(Path.Combine(folder, "rabbitmq-env.conf"), "");
        AppDomain.CurrentDomain.ProcessExit += (_, _) => server.Kill();
        await server.StartAsync();
        return server;
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

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        Kill();
    }

    /// <summary>The last resort (process exit): the node's process tree, its epmd, its folder.</summary>
    private void Kill()
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
        // epmd daemonizes away from the process tree; it is ours alone (its own port), so ask it to go.
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
        env["HOME"] = _folder; // the Erlang cookie lives here
        env["RABBITMQ_NODENAME"] = NodeName;
        env["RABBITMQ_NODE_IP_ADDRESS"] = "127.0.0.1";
        env["RABBITMQ_NODE_PORT"] = Port.ToString(System.Globalization.CultureInfo.InvariantCulture);
        env["RABBITMQ_DIST_PORT"] = _distPort.ToString(System.Globalization.CultureInfo.InvariantCulture);
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

/// <summary>RabbitMQ cannot run on this machine; the message says why.</summary>
public sealed class RabbitMqUnavailableException(string message) : Exception(message);
