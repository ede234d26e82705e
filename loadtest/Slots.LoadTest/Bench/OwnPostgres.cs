using System.Globalization;
using Slots.Topology;
using Slots.Topology.Run;

namespace Slots.LoadTest.Bench;

/// <summary>
/// A PostgreSQL server of the benchmark's own: initdb in the scratch folder, on a free loopback port, as the postgres
/// user when run as root (initdb and postgres refuse root), with a database named slots; stopped (fast) when disposed.
/// </summary>
internal sealed class OwnPostgres : IAsyncDisposable
{
    private readonly Command _pgCtl;

    // The huge pages its shared memory runs on, given back when it stops; null on 4 kB pages.
    private readonly HugePages? _hugePages;

    private OwnPostgres(string bin, string data, int port, Command pgCtl, HugePages? hugePages)
    {
        Bin = bin;
        Data = data;
        Port = port;
        _pgCtl = pgCtl;
        _hugePages = hugePages;
    }

    /// <summary>The newest installed server's binaries (pgbench, psql beside them).</summary>
    public string Bin { get; }

    public string Data { get; }

    public int Port { get; }

    /// <summary>The postmaster's PID, for CPU by process.</summary>
    public int Postmaster => int.Parse(File.ReadLines(Path.Combine(Data, "postmaster.pid")).First(), CultureInfo.InvariantCulture);

    /// <summary>The connection string to the slots database, with <paramref name="extra"/> (pool size, timeout) after it.</summary>
    public string ConnectionString(string extra = "") => $"Host=127.0.0.1;Port={Port};Database=slots;Username=postgres{extra}";

    /// <summary>
    /// Starts one. <paramref name="settings"/> are the server's -c settings beyond the address, port and socket folder
    /// (max_connections, shared_buffers, durability); <paramref name="pin"/> its taskset prefix; with
    /// <paramref name="hugePages"/>, its shared memory on huge pages reserved for it (<see cref="HugePages"/>).
    /// </summary>
    public static async Task<OwnPostgres> StartAsync(string work, IReadOnlyList<string> settings, IReadOnlyList<string> pin, bool hugePages = false)
    {
        var bin = NewestBin() ?? throw new InvalidOperationException("PostgreSQL's server binaries were not found (apt-get install postgresql).");
        var folder = Path.Combine(work, "pg-home");
        Directory.CreateDirectory(folder);
        await Postgres.ChownAsync(folder);
        var data = Path.Combine(folder, "data");
        var port = BenchHost.FreePort();
        var init = await Tool.TryRunAsync(new Command(Path.Combine(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"], [], RunAs: RunAs.Postgres), TimeSpan.FromMinutes(2));
        if (init.Code != 0)
        {
            throw new InvalidOperationException($"initdb failed: {init.Stderr}{init.Stdout}");
        }
        var huge = hugePages ? await HugePages.ReserveAsync(bin, data, settings) : null;
        settings = huge is null ? settings : [.. settings, "huge_pages=on"];
        var options = string.Join(' ', ["-c listen_addresses=127.0.0.1", $"-p {port}", $"-c unix_socket_directories={folder}", .. settings.Select(s => $"-c {s}")]);
        var pgCtl = new Command(Path.Combine(bin, "pg_ctl"), [], [], RunAs: RunAs.Postgres);
        var server = new OwnPostgres(bin, data, port, pgCtl, huge);
        // pg_ctl forks the postmaster, which keeps taskset's CPUs: the prefix goes in front of runuser.
        var (file, args) = Launcher.AsUser(pgCtl with { Args = ["-D", data, "-w", "-t", "60", "-l", Path.Combine(folder, "server.log"), "start", "-o", options] }, longRunning: false);
        IReadOnlyList<string> start = [.. pin, file, .. args];
        var started = await Tool.TryRunAsync(start[0], [.. start.Skip(1)], TimeSpan.FromSeconds(90));
        if (started.Code != 0)
        {
            await (huge?.ReleaseAsync() ?? Task.CompletedTask);
            throw new InvalidOperationException($"PostgreSQL did not start: {started.Stderr}{Tail(Path.Combine(folder, "server.log"))}");
        }
        await server.PsqlAsync("postgres", "CREATE DATABASE slots");
        return server;
    }

    /// <summary>One statement through psql on <paramref name="database"/>; its output.</summary>
    public Task<string> PsqlAsync(string database, string sql) =>
        Tool.RunAsync(Path.Combine(Bin, "psql"), ["-h", "127.0.0.1", "-p", Port.ToString(CultureInfo.InvariantCulture), "-U", "postgres", "-d", database, "-Atqc", sql], TimeSpan.FromMinutes(5));

    /// <summary>Proportional set size of the server and its backends in MB: shared buffers counted once, not per process.</summary>
    public long PssMegabytes()
    {
        var postmaster = Postmaster;
        long kb = 0;
        foreach (var pid in (int[])[postmaster, .. ProcTree.Children(postmaster)])
        {
            try
            {
                var line = File.ReadLines($"/proc/{pid}/smaps_rollup").FirstOrDefault(l => l.StartsWith("Pss:", StringComparison.Ordinal));
                kb += line is null ? 0 : long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], CultureInfo.InvariantCulture);
            }
            catch (IOException)
            {
                // A backend that ended meanwhile.
            }
        }
        return (long)Math.Round(kb / 1024.0);
    }

    public async ValueTask DisposeAsync()
    {
        if (File.Exists(Path.Combine(Data, "postmaster.pid")))
        {
            await Tool.TryRunAsync(_pgCtl with { Args = ["-D", Data, "stop", "-m", "fast", "-w", "-t", "30"] }, TimeSpan.FromSeconds(60));
        }
        await (_hugePages?.ReleaseAsync() ?? Task.CompletedTask);
    }

    /// <summary>The newest installed server's bin folder (/usr/lib/postgresql/VERSION/bin), by version; null when there is none.</summary>
    public static string? NewestBin() => Directory.Exists("/usr/lib/postgresql")
        ? Directory.GetDirectories("/usr/lib/postgresql").Select(v => Path.Combine(v, "bin"))
            .Where(b => File.Exists(Path.Combine(b, "initdb"))).OrderBy(Version).LastOrDefault()
        : null;

    private static Version Version(string bin) =>
        System.Version.TryParse(Path.GetFileName(Path.GetDirectoryName(bin)), out var v) ? v
        : int.TryParse(Path.GetFileName(Path.GetDirectoryName(bin)), out var major) ? new Version(major, 0) : new Version(0, 0);

    private static string Tail(string path) => File.Exists(path) ? string.Join('\n', File.ReadLines(path).TakeLast(20)) : "";
}
