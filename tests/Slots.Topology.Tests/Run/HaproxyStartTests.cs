using Slots.Topology.Run;
using Repository = Slots.Testing.Repository;
using Unavailable = Slots.Testing.Unavailable;

namespace Slots.Topology.Tests.Run;

/// <summary>HAProxy alone, as the stack starts it: its configuration checked with the node's environment, launched
/// detached with its master's PID kept, its stats page read, then stopped by `down`.</summary>
public sealed class HaproxyStartTests : IDisposable
{
    private readonly string _dir = Directory.CreateTempSubdirectory("slots-haproxy-").FullName;

    [Fact]
    public async Task HAProxy_alone_starts_detached_serves_its_stats_and_down_stops_it()
    {
        var ct = TestContext.Current.CancellationToken;
        if (!File.Exists("/usr/sbin/haproxy") && !File.Exists("/usr/bin/haproxy"))
        {
            Unavailable.SkipOrFail("haproxy is not installed (apt-get install haproxy)");
        }

        var stats = ChildProcess.FreePort();
        var options = new StackOptions
        {
            Root = Repository.Root,
            StateDir = _dir,
            Ports = PortPlan.Derive(
                front: ChildProcess.FreePort(), redirect: ChildProcess.FreePort(), stats: stats, postgres: ChildProcess.FreePort(),
                apiFirst: ChildProcess.FreePort(), schedulerFirst: ChildProcess.FreePort(), amqp: 1, rabbitDist: 2, rabbitMgmt: 3,
                epmd: 4, etcdFirst: 5, pgNodeFirst: 7, patroniFirst: 10, rabbitFirst: 13, peerFirst: 40),
        };
        var said = new List<string>();
        using var stack = new Stack(options, said.Add);
        var tls = await Tool.TryRunAsync(stack.Topology["tls"].Start!, TimeSpan.FromMinutes(1));
        Assert.True(tls.Code == 0, tls.Stderr);
        var node = stack.Topology["haproxy"];
        var pidFile = Path.Combine(options.Pids, "haproxy.pid");

        await Haproxy.PrepareAsync(node, options.Logs);
        var pid = Launcher.StartDetached(node.Start!, Path.Combine(options.Logs, "haproxy.log"), pidFile);
        try
        {
            using var http = Probes.NewClient();
            IReadOnlyList<HaproxyStats.Server>? servers = null;
            // A server starts UP and is marked DOWN after two failed checks; nothing listens on the API ports here.
            await LauncherTests.Until(() => (servers = HaproxyStats.ReadAsync(http, stats, ct).GetAwaiter().GetResult()) is { } read
                && read.Any(s => s.Backend == "api") && HaproxyStats.Up(read, "api").Count == 0);

            Assert.Equal(["api1", "api2"], servers!.Where(s => s.Backend == "api").Select(s => s.Name));
            Assert.All(servers!.Where(s => s.Backend == "api"), s => Assert.StartsWith("DOWN", s.Status, StringComparison.Ordinal));
            // HAProxy itself serves (its health is its front port); `up`'s gate after it waits for the APIs behind it.
            Assert.False(HaproxyStats.Satisfies(servers!, (Health.HaproxyUp)stack.Topology["haproxy-apis"].Ready));
            var row = Assert.Single(await stack.StatusAsync(ct), p => p.Part == "haproxy");
            Assert.Equal((pid, true, true), (row.Pid, row.Up, row.Healthy));
            Assert.StartsWith("api UP 0/2", row.Detail, StringComparison.Ordinal);
            // Master-worker: the master's PID is the file's, its workers are its children.
            var pids = await stack.PidsAsync("haproxy", ct);
            Assert.Equal(pid, pids![0]);
            Assert.True(pids.Count > 1, "haproxy -W runs a worker beside its master");
        }
        finally
        {
            await stack.DownAsync(ct);
        }

        Assert.Contains("  haproxy stopped", said);
        Assert.False(ProcTree.Alive(pid));
        Assert.False(File.Exists(pidFile));
    }

    [Fact]
    public void A_restarted_haproxy_keeps_the_previous_runs_log_lines()
    {
        var log = Path.Combine(_dir, "haproxy1.log");
        File.WriteAllText(Path.Combine(_dir, "haproxy1.previous.log"), "first run\n");
        File.WriteAllText(log, "second run\n");

        Haproxy.KeepPreviousLog(log);

        Assert.Equal("first run\nsecond run\n", File.ReadAllText(Path.Combine(_dir, "haproxy1.previous.log")));
        Assert.Equal("", File.ReadAllText(log));
    }

    public void Dispose() => Directory.Delete(_dir, recursive: true);
}
