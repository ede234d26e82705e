using System.Net;
using System.Net.Sockets;
using Npgsql;

namespace Slots.Testing;

/// <summary>
/// ONE throwaway PostgreSQL server per test run: its own temp data folder, 127.0.0.1 on a free
/// port, a unix socket folder of its own, fsync off (the data dies with the run anyway). Started
/// lazily by the first test that asks, stopped cleanly (pg_ctl stop -m fast) when the test
/// process exits. Where no server binaries are found, or initdb/start fails, it says why instead
/// of hanging, and the Postgres tests skip with that reason. A test that needs to stop and start
/// the database under traffic gets a server of its own (<see cref="OwnAsync"/>).
/// </summary>
public sealed class PostgresServer : IAsyncDisposable
{
    private static readonly Lazy<Task<PostgresServer>> SharedServer = new(() => CreateAsync(owned: false));

    private readonly string _bin;
    private readonly string _folder;
    private readonly bool _asPostgresUser;
    private readonly bool _owned;

    private PostgresServer(string bin, string folder, int port, bool asPostgresUser, bool owned)
    {
        _owned = owned;
        _bin = bin;
        _folder = folder;
        _asPostgresUser = asPostgresUser;
        Port = port;
    }

    public int Port { get; }

    private string DataFolder => Path.Combine(_folder, "data");

    /// <summary>The shared server, started on first use; throws <see cref="PostgresUnavailableException"/> with the reason when it cannot run here.</summary>
    public static Task<PostgresServer> SharedAsync() => SharedServer.Value;

    /// <summary>
    /// A server for one test alone, which it may stop and start again (<see cref="StopAsync"/>,
    /// <see cref="StartAsync"/>) and must dispose; also stopped when the test process exits.
    /// </summary>
    public static Task<PostgresServer> OwnAsync() => CreateAsync(owned: true);

    /// <summary>Stops the server the way an operator would (fast shutdown: connections are cut, nothing committed is lost).</summary>
    public Task StopAsync() => PgCtlAsync(["stop", "-m", "fast", "-w", "-t", "30"], TimeSpan.FromSeconds(40));

    /// <summary>Starts the server again on the same port and data folder; returns when it accepts connections.</summary>
    public Task StartAsync() => PgCtlAsync(["start", "-w", "-t", "60", "-l", Path.Combine(_folder, "server.log"), "-o", string.Join(' ',
        "-c listen_addresses=127.0.0.1", $"-p {Port}", $"-c unix_socket_directories={Path.Combine(_folder, "sock")}",
        "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=500 -c shared_buffers=64MB")],
        TimeSpan.FromSeconds(90));

    public ValueTask DisposeAsync()
    {
        if (_owned)
        {
            AppDomain.CurrentDomain.ProcessExit -= OnProcessExit;
            Stop();
        }
        return ValueTask.CompletedTask;
    }

    public string ConnectionString(string database) => new NpgsqlConnectionStringBuilder
    {
        Host = "127.0.0.1",
        Port = Port,
        Database = database,
        Username = "postgres",
        Timeout = 15,
        // Each test host has its own pools; keep their idle connections from piling up on the server.
        ConnectionIdleLifetime = 10,
    }.ConnectionString;

    public async Task<string> CreateDatabaseAsync(string name, CancellationToken ct)
    {
        await using var admin = new NpgsqlConnection(ConnectionString("postgres"));
        await admin.OpenAsync(ct);
        await using var create = new NpgsqlCommand($"CREATE DATABASE \"{name}\"", admin);
        await create.ExecuteNonQueryAsync(ct);
        return ConnectionString(name);
    }

    private static async Task<PostgresServer> CreateAsync(bool owned)
    {
        var bin = FindBinaries() ?? throw new PostgresUnavailableException(
            "PostgreSQL server binaries (initdb, pg_ctl) not found; set SLOTS_PG_BIN or install postgresql-15 (apt-get install postgresql-15).");
        var asPostgresUser = Environment.UserName == "root";
        if (asPostgresUser && !await SucceedsAsync("id", ["-u", "postgres"]))
        {
            throw new PostgresUnavailableException("Running as root, and initdb refuses root, but there is no 'postgres' user to run it as.");
        }
        var folder = Directory.CreateTempSubdirectory("slots-pg-").FullName;
        Directory.CreateDirectory(Path.Combine(folder, "sock"));
        if (asPostgresUser)
        {
            await RunAsync("chown", ["-R", "postgres:postgres", folder], TimeSpan.FromSeconds(10));
        }
        var server = new PostgresServer(bin, folder, FreePort(), asPostgresUser, owned);
        try
        {
            await server.InitAsync();
            await server.StartAsync();
        }
        catch (Exception ex) when (ex is not PostgresUnavailableException)
        {
            server.Delete();
            throw new PostgresUnavailableException($"PostgreSQL did not start: {ex.Message}");
        }
        catch
        {
            server.Delete();
            throw;
        }
        AppDomain.CurrentDomain.ProcessExit += server.OnProcessExit;
        return server;
    }

    private void OnProcessExit(object? sender, EventArgs e) => Stop();

    private async Task InitAsync()
    {
        string[] common = ["-D", DataFolder, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"];
        // ICU makes lower() agree with .NET on letters like Ž (place search); older servers lack the switch.
        if (await TryPostgresToolAsync("initdb", [.. common, "--locale-provider=icu", "--icu-locale=und"]))
        {
            return;
        }
        if (Directory.Exists(DataFolder))
        {
            Directory.Delete(DataFolder, recursive: true);
        }
        if (!await TryPostgresToolAsync("initdb", common))
        {
            throw new PostgresUnavailableException("initdb failed; see its output above.");
        }
    }

    private void Stop()
    {
        try
        {
            if (File.Exists(Path.Combine(DataFolder, "postmaster.pid")))
            {
                StopAsync().GetAwaiter().GetResult();
            }
        }
        catch (Exception ex) when (ex is InvalidOperationException or TimeoutException or System.ComponentModel.Win32Exception)
        {
            // The process is exiting; the server's folder is in temp either way.
        }
        Delete();
    }

    private void Delete()
    {
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

    private Task<string> PgCtlAsync(string[] args, TimeSpan timeout) =>
        RunAsync(_asPostgresUser ? "runuser" : Path.Combine(_bin, "pg_ctl"),
            _asPostgresUser ? ["-u", "postgres", "--", Path.Combine(_bin, "pg_ctl"), "-D", DataFolder, .. args] : ["-D", DataFolder, .. args],
            timeout);

    private async Task<bool> TryPostgresToolAsync(string tool, string[] args)
    {
        try
        {
            await RunAsync(_asPostgresUser ? "runuser" : Path.Combine(_bin, tool),
                _asPostgresUser ? ["-u", "postgres", "--", Path.Combine(_bin, tool), .. args] : args,
                TimeSpan.FromSeconds(90));
            return true;
        }
        catch (InvalidOperationException)
        {
            return false;
        }
    }

    private static string? FindBinaries()
    {
        var configured = Environment.GetEnvironmentVariable("SLOTS_PG_BIN");
        if (!string.IsNullOrEmpty(configured))
        {
            return File.Exists(Path.Combine(configured, "initdb")) ? configured : null;
        }
        const string debian = "/usr/lib/postgresql";
        if (Directory.Exists(debian))
        {
            var newest = Directory.GetDirectories(debian)
                .Select(d => (Dir: Path.Combine(d, "bin"), Version: int.TryParse(Path.GetFileName(d), out var v) ? v : 0))
                .Where(d => File.Exists(Path.Combine(d.Dir, "initdb")))
                .OrderByDescending(d => d.Version)
                .FirstOrDefault();
            if (newest.Dir is not null)
            {
                return newest.Dir;
            }
        }
        return (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator)
            .FirstOrDefault(d => d.Length > 0 && File.Exists(Path.Combine(d, "initdb")) && File.Exists(Path.Combine(d, "pg_ctl")));
    }

    private static int FreePort()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        return ((IPEndPoint)probe.LocalEndpoint).Port;
    }

    private static async Task<bool> SucceedsAsync(string file, string[] args)
    {
        try
        {
            await RunAsync(file, args, TimeSpan.FromSeconds(10));
            return true;
        }
        catch (InvalidOperationException)
        {
            return false;
        }
    }

    private static Task<string> RunAsync(string file, string[] args, TimeSpan timeout) => Tool.RunAsync(file, args, timeout);
}

/// <summary>PostgreSQL cannot run on this machine; the message says why.</summary>
public sealed class PostgresUnavailableException(string message) : ServerUnavailableException(message);
