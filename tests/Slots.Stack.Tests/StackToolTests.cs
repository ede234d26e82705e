using System.Diagnostics;
using Slots.Stack.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Stack.Tests;

/// <summary>The stack tool's (./slots stack) handling of the parts it starts, one part at a time.</summary>
public sealed class StackToolTests
{
    [Fact]
    public async Task A_restarted_haproxy_keeps_the_log_lines_of_the_one_before()
    {
        // A second HAProxy on the same log wrote from the start of the file over the first one's
        // lines (it resets stdout's append flag), so the benchmark read nothing of its runs after a restart.
        StackProcesses.SkipWithoutHaproxy();
        var ct = TestContext.Current.CancellationToken;
        var state = Directory.CreateTempSubdirectory("slots-stack-script-");
        var front = ChildProcess.FreePort();
        var stats = ChildProcess.FreePort();
        try
        {
            await StackAsync(state.FullName, front, stats, ct, "start", "haproxy");
            using var http = TrustingLocalCa(state.FullName);
            await http.GetAsync(new Uri($"https://127.0.0.1:{front}/first-run"), ct);
            var first = await LoggedAsync(Path.Combine(state.FullName, "logs", "haproxy.log"), "/first-run", ct);
            await StopHaproxyAsync(state.FullName, ct);

            await StackAsync(state.FullName, front, stats, ct, "start", "haproxy");
            await http.GetAsync(new Uri($"https://127.0.0.1:{front}/second-run"), ct);
            var second = await LoggedAsync(Path.Combine(state.FullName, "logs", "haproxy.log"), "/second-run", ct);

            Assert.Contains(first, await File.ReadAllTextAsync(Path.Combine(state.FullName, "logs", "haproxy.previous.log"), ct));
            Assert.DoesNotContain("/first-run", second);
        }
        finally
        {
            await StopHaproxyAsync(state.FullName, ct);
            state.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Reload_cert_renew_has_the_same_haproxy_serve_a_new_certificate_of_the_same_local_CA()
    {
        StackProcesses.SkipWithoutHaproxy();
        var ct = TestContext.Current.CancellationToken;
        var state = Directory.CreateTempSubdirectory("slots-stack-script-");
        var front = ChildProcess.FreePort();
        var stats = ChildProcess.FreePort();
        try
        {
            var started = await StackAsync(state.FullName, front, stats, ct, "start", "haproxy");
            var tls = Path.Combine(state.FullName, "tls");
            var ca = await File.ReadAllTextAsync(Path.Combine(tls, "ca.crt"), ct);
            var master = await File.ReadAllTextAsync(Path.Combine(state.FullName, "pids", "haproxy.pid"), ct);
            var before = await ServedAsync(front);
            using var http = TrustingLocalCa(state.FullName);
            var answerBefore = await http.GetAsync(new Uri($"https://127.0.0.1:{front}/"), ct);

            var reloaded = await StackAsync(state.FullName, front, stats, ct, "reload-cert", "--renew");
            var after = await ServedAsync(front);
            var reloadedMaster = await File.ReadAllTextAsync(Path.Combine(state.FullName, "pids", "haproxy.pid"), ct);
            // A second start of a stack keeps what is valid: the same CA, the renewed certificate.
            await StopHaproxyAsync(state.FullName, ct);
            await StackAsync(state.FullName, front, stats, ct, "start", "haproxy");
            var restarted = await ServedAsync(front);

            Assert.Contains("issued by the local CA", started, StringComparison.Ordinal);
            // HTTPS with the local CA trusted; no API behind it here, so HAProxy's own 503, with HSTS.
            Assert.Equal(System.Net.HttpStatusCode.ServiceUnavailable, answerBefore.StatusCode);
            Assert.True(answerBefore.Headers.Contains("Strict-Transport-Security"));
            Assert.NotEqual(before, after);
            Assert.Contains($"serves certificate {after}", reloaded, StringComparison.Ordinal);
            // Reloaded, not restarted: the same master process.
            Assert.Equal(master, reloadedMaster);
            Assert.Equal(ca, await File.ReadAllTextAsync(Path.Combine(tls, "ca.crt"), ct));
            Assert.Equal(after, restarted);
        }
        finally
        {
            await StopHaproxyAsync(state.FullName, ct);
            state.Delete(recursive: true);
        }
    }

    /// <summary>The serial number of the certificate served on <paramref name="port"/> (scripts/tls.sh served).</summary>
    private static async Task<string> ServedAsync(int port) =>
        (await HaproxyServer.TlsScriptAsync(["served", $"127.0.0.1:{port}"])).Trim();

    /// <summary>A client that trusts the stack's local CA in <paramref name="state"/>/tls and no other.</summary>
    private static HttpClient TrustingLocalCa(string state) =>
        new(HaproxyServer.TrustingStackCa(state))
        {
            Timeout = TimeSpan.FromSeconds(5),
        };

    /// <summary>One plain-HTTP port per state folder, the same at every call: the local certificate names it.</summary>
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<string, int> RedirectPorts = new();

    private static async Task<string> StackAsync(string state, int front, int stats, CancellationToken ct, params string[] arguments)
    {
        var inv = System.Globalization.CultureInfo.InvariantCulture;
        var (exitCode, output, errors) = await Scripts.StackAsync(arguments, new Dictionary<string, string>
        {
            ["SLOTS_STACK_DIR"] = state,
            ["SLOTS_FRONT_PORT"] = front.ToString(inv),
            ["SLOTS_STATS_PORT"] = stats.ToString(inv),
            ["SLOTS_REDIRECT_PORT"] = RedirectPorts.GetOrAdd(state, _ => ChildProcess.FreePort()).ToString(inv),
            ["SLOTS_API_COUNT"] = "1",
            ["SLOTS_API_FIRST_PORT"] = ChildProcess.FreePort().ToString(inv),
        }, ct);
        Assert.True(exitCode == 0, $"./slots stack {string.Join(' ', arguments)} ended {exitCode}: {output}{errors}");
        return output;
    }

    /// <summary>The log once the request's line is in it (HAProxy writes it when the answer has left).</summary>
    private static async Task<string> LoggedAsync(string log, string path, CancellationToken ct)
    {
        for (var i = 0; i < 50; i++)
        {
            var text = File.Exists(log) ? await File.ReadAllTextAsync(log, ct) : "";
            if (text.Contains(path, StringComparison.Ordinal))
            {
                return text;
            }
            await Task.Delay(100, ct);
        }
        throw new TimeoutException($"HAProxy did not log {path}.");
    }

    private static async Task StopHaproxyAsync(string state, CancellationToken ct)
    {
        var pidFile = Path.Combine(state, "pids", "haproxy.pid");
        if (!File.Exists(pidFile) || !int.TryParse(await File.ReadAllTextAsync(pidFile, ct), out var pid))
        {
            return;
        }
        try
        {
            using var haproxy = Process.GetProcessById(pid);
            haproxy.Kill();
            await haproxy.WaitForExitAsync(ct);
        }
        catch (ArgumentException)
        {
            // already gone
        }
        File.Delete(pidFile);
    }
}
