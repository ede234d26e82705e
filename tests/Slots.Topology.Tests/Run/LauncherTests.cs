using System.Globalization;
using Slots.Topology.Run;

namespace Slots.Topology.Tests.Run;

public sealed class LauncherTests : IDisposable
{
    private readonly string _dir = Directory.CreateTempSubdirectory("slots-launcher-").FullName;

    [Fact]
    public async Task A_detached_part_keeps_its_own_pid_in_the_pid_file_after_its_shell_execs()
    {
        var log = Path.Combine(_dir, "logs", "part.log");
        var pidFile = Path.Combine(_dir, "pids", "part.pid");
        var command = new Command("/bin/sh", ["-c", "echo started as $$; exec sleep 30"], [new("SLOTS_LAUNCHER_TEST", "1")]);

        var pid = Launcher.StartDetached(command, log, pidFile);
        try
        {
            await Until(() => ProcTree.CommandLine(pid) is [var program, ..] && program == "sleep");

            Assert.Equal(pid, ProcTree.ReadPidFile(pidFile));
            Assert.True(ProcTree.Alive(pid));
            // Both execs kept the PID: the shell that wrote the log line was this very process.
            await Until(() => File.Exists(log) && File.ReadAllText(log).Contains($"started as {pid}", StringComparison.Ordinal));
            // setsid: a session of its own, so no terminal hang-up of the caller's reaches it.
            Assert.Equal(pid.ToString(CultureInfo.InvariantCulture), File.ReadAllText($"/proc/{pid}/stat").Split(") ")[1].Split(' ')[3]);
        }
        finally
        {
            await Stopper.TermThenKillAsync("part", pidFile, _ => { });
        }

        Assert.False(ProcTree.Alive(pid));
        Assert.False(File.Exists(pidFile));
    }

    [Fact]
    public async Task Stopping_a_part_that_does_not_run_removes_its_stale_pid_file_and_says_nothing()
    {
        var pidFile = Path.Combine(_dir, "stale.pid");
        await File.WriteAllTextAsync(pidFile, "999999999\n", TestContext.Current.CancellationToken);
        var said = new List<string>();

        var wasRunning = await Stopper.TermThenKillAsync("stale", pidFile, said.Add);

        Assert.False(wasRunning);
        Assert.False(File.Exists(pidFile));
        Assert.Empty(said);
    }

    internal static async Task Until(Func<bool> condition)
    {
        var deadline = DateTime.UtcNow.AddSeconds(15);
        while (!condition())
        {
            Assert.True(DateTime.UtcNow < deadline, "the condition did not hold within 15 s");
            await Task.Delay(50, TestContext.Current.CancellationToken);
        }
    }

    public void Dispose() => Directory.Delete(_dir, recursive: true);
}
