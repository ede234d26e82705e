using System.Diagnostics;
using System.Globalization;
using Slots.Topology.Run;

namespace Slots.Topology.Tests.Run;

public sealed class ProcTreeTests
{
    [Fact]
    public async Task A_zombie_is_not_alive_though_it_is_still_in_proc()
    {
        // The shell backgrounds a short sleep, prints its PID and execs a long sleep that never reaps it:
        // the short one becomes a zombie, a child that answers kill -0 but runs no more.
        var start = new ProcessStartInfo("/bin/sh", ["-c", "sleep 0.2 & echo $!; exec sleep 30"])
        {
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        using var parent = Process.Start(start)!;
        try
        {
            var zombie = int.Parse((await parent.StandardOutput.ReadLineAsync(TestContext.Current.CancellationToken))!, CultureInfo.InvariantCulture);
            await LauncherTests.Until(() => State(zombie) == 'Z');

            Assert.True(File.Exists($"/proc/{zombie}/stat"));
            Assert.False(ProcTree.Alive(zombie));
            Assert.True(ProcTree.Alive(parent.Id));
            Assert.Contains(zombie, ProcTree.Children(parent.Id));
        }
        finally
        {
            parent.Kill();
            await parent.WaitForExitAsync(TestContext.Current.CancellationToken);
        }
    }

    [Fact]
    public void A_process_that_never_was_is_not_alive_and_an_unreadable_pid_file_names_none()
    {
        Assert.False(ProcTree.Alive(0));
        Assert.False(ProcTree.Alive(int.MaxValue));
        Assert.Null(ProcTree.ReadPidFile(Path.Combine(Path.GetTempPath(), Guid.NewGuid().ToString("N"))));
    }

    private static char? State(int pid)
    {
        try
        {
            return File.ReadAllText($"/proc/{pid}/stat").Split(") ")[1][0];
        }
        catch (IOException)
        {
            return null;
        }
    }
}
