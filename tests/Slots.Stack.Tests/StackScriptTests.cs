using System.Diagnostics;
using Slots.Stack.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Stack.Tests;

/// <summary>scripts/stack.sh's handling of the parts it starts, one part at a time.</summary>
public sealed class StackScriptTests
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
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };
        try
        {
            await StackAsync(state.FullName, front, stats, ct, "start", "haproxy");
            await http.GetAsync(new Uri($"http://127.0.0.1:{front}/first-run"), ct);
            var first = await LoggedAsync(Path.Combine(state.FullName, "logs", "haproxy.log"), "/first-run", ct);
            await StopHaproxyAsync(state.FullName, ct);

            await StackAsync(state.FullName, front, stats, ct, "start", "haproxy");
            await http.GetAsync(new Uri($"http://127.0.0.1:{front}/second-run"), ct);
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

    private static async Task StackAsync(string state, int front, int stats, CancellationToken ct, params string[] arguments)
    {
        var inv = System.Globalization.CultureInfo.InvariantCulture;
        var (exitCode, output, errors) = await Scripts.RunAsync("scripts/stack.sh", arguments, new Dictionary<string, string>
        {
            ["SLOTS_STACK_DIR"] = state,
            ["SLOTS_FRONT_PORT"] = front.ToString(inv),
            ["SLOTS_STATS_PORT"] = stats.ToString(inv),
            ["SLOTS_API_COUNT"] = "1",
            ["SLOTS_API_FIRST_PORT"] = ChildProcess.FreePort().ToString(inv),
        }, ct);
        Assert.True(exitCode == 0, $"stack.sh {string.Join(' ', arguments)} ended {exitCode}: {output}{errors}");
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
