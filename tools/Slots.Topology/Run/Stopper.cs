using System.Globalization;

namespace Slots.Topology.Run;

/// <summary>Stops parts: SIGTERM, up to 20 s for a clean exit, then SIGKILL; PostgreSQL through pg_ctl.</summary>
public static class Stopper
{
    public static readonly TimeSpan Grace = TimeSpan.FromSeconds(20);

    /// <summary>Sends <paramref name="signal"/> (TERM, KILL, INT, USR2, STOP, CONT) to each process.</summary>
    public static async Task SignalAsync(string signal, params int[] pids)
    {
        if (pids.Length > 0)
        {
            await Tool.TryRunAsync("kill", [$"-{signal}", .. pids.Select(p => p.ToString(CultureInfo.InvariantCulture))], TimeSpan.FromSeconds(10));
        }
    }

    /// <summary>The part in <paramref name="pidFile"/>: TERM, then KILL after <see cref="Grace"/>; the PID file goes
    /// either way. Returns whether it was running.</summary>
    public static async Task<bool> TermThenKillAsync(string name, string pidFile, Action<string> say)
    {
        var pid = ProcTree.AlivePid(pidFile);
        if (pid is null)
        {
            File.Delete(pidFile);
            return false;
        }

        await SignalAsync("TERM", pid.Value);
        var deadline = DateTime.UtcNow + Grace;
        while (ProcTree.Alive(pid.Value) && DateTime.UtcNow < deadline)
        {
            await Task.Delay(Waiter.Poll);
        }

        if (ProcTree.Alive(pid.Value))
        {
            say($"  {name} did not stop in {Grace.TotalSeconds} s; SIGKILL");
            await SignalAsync("KILL", pid.Value);
        }

        File.Delete(pidFile);
        say($"  {name} stopped");
        return true;
    }
}
