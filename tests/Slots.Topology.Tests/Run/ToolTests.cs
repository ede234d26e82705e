using System.Diagnostics;
using Slots.Topology.Run;

namespace Slots.Topology.Tests.Run;

public sealed class ToolTests
{
    [Fact]
    public async Task A_tool_that_leaves_a_process_holding_its_output_fails_after_the_grace_instead_of_waiting_for_it()
    {
        var clock = Stopwatch.StartNew();

        // The background sleep inherits the pipes and outlives bash by far more than the grace.
        var failed = await Assert.ThrowsAsync<InvalidOperationException>(() =>
            Tool.TryRunAsync("bash", ["-c", "sleep 47.31 & echo started"], TimeSpan.FromSeconds(10)));

        Assert.Contains("exited with 0, but a process it started still holds its output open", failed.Message, StringComparison.Ordinal);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(40), $"it waited {clock.Elapsed.TotalSeconds:0} s");
        // The sleep is not this test's to keep.
        foreach (var sleeper in Process.GetProcessesByName("sleep"))
        {
            using (sleeper)
            {
                if (ProcTree.CommandLine(sleeper.Id) is ["sleep", "47.31"])
                {
                    sleeper.Kill();
                }
            }
        }
    }

    [Fact]
    public async Task A_tool_that_overruns_its_limit_is_killed_and_named()
    {
        var failed = await Assert.ThrowsAsync<InvalidOperationException>(() =>
            Tool.TryRunAsync("bash", ["-c", "exec sleep 30"], TimeSpan.FromSeconds(1)));

        Assert.Equal("bash -c exec sleep 30 took longer than 1 s", failed.Message);
    }
}
