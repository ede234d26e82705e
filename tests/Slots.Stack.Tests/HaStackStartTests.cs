using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Slots.Stack.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Stack.Tests;

/// <summary>
/// `./slots stack up --ha` when it cannot start: it names the part, the port or the log, and stops
/// what it started. The whole stack's faults are the HA chaos soak's (loadtest/chaos.sh --ha, run by ./slots test).
/// </summary>
public sealed class HaStackStartTests
{
    private static void SkipWithoutEtcd()
    {
        if (!File.Exists("/usr/bin/etcd") || !File.Exists("/usr/bin/patroni"))
        {
            Unavailable.SkipOrFail("etcd and patroni are not installed (apt-get install etcd-server patroni; ./slots test installs them).");
        }
    }

    [Fact]
    public async Task A_port_in_use_is_refused_and_named()
    {
        SkipWithoutEtcd();
        var ct = TestContext.Current.CancellationToken;
        var state = Directory.CreateTempSubdirectory("slots-ha-start-");
        var first = FreeRange(6);
        // etcd2's client port: etcd1 starts, then etcd2 is refused.
        var taken = new TcpListener(IPAddress.Loopback, first + 2);
        taken.Start();
        try
        {
            var (exitCode, output, errors) = await UpAsync(state.FullName, first, ct);

            Assert.NotEqual(0, exitCode);
            Assert.Contains($"etcd2: port {first + 2} is in use by another process", output + errors, StringComparison.Ordinal);
        }
        finally
        {
            taken.Stop();
            await DownAsync(state.FullName, first, ct);
            state.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task An_etcd_member_that_cannot_start_is_named_with_its_log()
    {
        SkipWithoutEtcd();
        var ct = TestContext.Current.CancellationToken;
        var state = Directory.CreateTempSubdirectory("slots-ha-start-");
        // etcd1's data folder is a file: etcd logs why and exits.
        Directory.CreateDirectory(Path.Combine(state.FullName, "etcd"));
        await File.WriteAllTextAsync(Path.Combine(state.FullName, "etcd", "etcd1"), "not a folder", ct);
        var first = FreeRange(6);
        try
        {
            var (exitCode, output, errors) = await UpAsync(state.FullName, first, ct);

            Assert.NotEqual(0, exitCode);
            var said = output + errors;
            Assert.Contains("etcd1 exited while starting; its log is", said, StringComparison.Ordinal);
            Assert.Contains(Path.Combine(state.FullName, "logs", "etcd1.log"), said, StringComparison.Ordinal);
        }
        finally
        {
            await DownAsync(state.FullName, first, ct);
            state.Delete(recursive: true);
        }
    }

    private static Task<(int ExitCode, string Output, string Errors)> UpAsync(string state, int etcdFirstPort, CancellationToken ct) =>
        Scripts.StackAsync(["up", "--ha"], Environment(state, etcdFirstPort), ct);

    private static async Task DownAsync(string state, int etcdFirstPort, CancellationToken ct)
    {
        if (File.Exists(Path.Combine(state, "ha")))
        {
            await Scripts.StackAsync(["down"], Environment(state, etcdFirstPort), ct);
        }
    }

    private static Dictionary<string, string> Environment(string state, int etcdFirstPort) => new()
    {
        ["SLOTS_STACK_DIR"] = state,
        ["SLOTS_STACK_BUILD"] = "0",
        ["SLOTS_STACK_WAIT_S"] = "20",
        ["SLOTS_ETCD_FIRST_PORT"] = etcdFirstPort.ToString(CultureInfo.InvariantCulture),
    };

    /// <summary>The first of <paramref name="count"/> consecutive free loopback ports.</summary>
    private static int FreeRange(int count)
    {
        for (var attempt = 0; attempt < 50; attempt++)
        {
            var first = ChildProcess.FreePort();
            if (first + count < 65_000 && Enumerable.Range(first, count).All(Free))
            {
                return first;
            }
        }
        throw new InvalidOperationException($"No {count} consecutive free ports.");
    }

    private static bool Free(int port)
    {
        try
        {
            var probe = new TcpListener(IPAddress.Loopback, port);
            probe.Start();
            probe.Stop();
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }
}
