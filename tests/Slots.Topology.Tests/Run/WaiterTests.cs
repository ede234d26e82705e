using Slots.Topology.Run;

namespace Slots.Topology.Tests.Run;

public sealed class WaiterTests : IDisposable
{
    private readonly string _dir = Directory.CreateTempSubdirectory("slots-waiter-").FullName;

    [Fact]
    public async Task A_part_that_exits_while_starting_is_named_with_its_log_and_the_last_lines()
    {
        var log = Path.Combine(_dir, "pg1.log");
        await File.WriteAllLinesAsync(log, Enumerable.Range(1, 20).Select(i => $"line {i}"), TestContext.Current.CancellationToken);

        var failed = await Assert.ThrowsAsync<StackStartException>(() => Waiter.WaitAsync(
            "pg1", _ => Task.FromResult(false), () => false, log, _dir, TimeSpan.FromSeconds(30), CancellationToken.None));

        Assert.StartsWith($"pg1 exited while starting; its log is {log}", failed.Message, StringComparison.Ordinal);
        Assert.Contains("    line 6\n", failed.Message, StringComparison.Ordinal);
        Assert.EndsWith("    line 20", failed.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("line 5\n", failed.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_part_that_runs_but_never_becomes_healthy_times_out_naming_the_logs()
    {
        var failed = await Assert.ThrowsAsync<StackStartException>(() => Waiter.WaitAsync(
            "api1", _ => Task.FromResult(false), () => true, Path.Combine(_dir, "api1.log"), _dir, TimeSpan.FromSeconds(1), CancellationToken.None));

        Assert.Equal($"api1: not healthy after 1s; see {_dir}/", failed.Message);
    }

    [Fact]
    public async Task A_healthy_part_is_waited_for_until_its_check_holds()
    {
        var checks = 0;

        await Waiter.WaitAsync(
            "api1", _ => Task.FromResult(++checks == 3), () => true, Path.Combine(_dir, "api1.log"), _dir, TimeSpan.FromSeconds(30), CancellationToken.None);

        Assert.Equal(3, checks);
    }

    public void Dispose() => Directory.Delete(_dir, recursive: true);
}
