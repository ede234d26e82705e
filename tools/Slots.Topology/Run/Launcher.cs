using System.Diagnostics;
using System.Globalization;

namespace Slots.Topology.Run;

/// <summary>Starts a part detached from the caller, as the stack tool, the chaos soak and the benchmark need: it
/// outlives the starting process, writes to its own log and keeps one PID, the program's own, in pids/NAME.pid.</summary>
public static class Launcher
{
    // setsid gives the part a session of its own (no terminal hang-up reaches it); the shell points stdout and
    // stderr at the log (appending, as nohup … >> did) and both execs replace the process instead of forking, so
    // the PID the caller sees is the program's (Patroni's real PID, which the chaos soak kills, not a wrapper's).
    private const string Redirect = "exec >>\"$0\" 2>&1 </dev/null; exec \"$@\"";

    public static bool IsRoot => Environment.IsPrivilegedProcess;

    /// <summary>Starts <paramref name="command"/> detached with its output appended to <paramref name="log"/>;
    /// writes and returns its PID.</summary>
    public static int StartDetached(Command command, string log, string pidFile)
    {
        var (file, args) = AsUser(command, longRunning: true);
        var start = new ProcessStartInfo("setsid") { UseShellExecute = false };
        foreach (var arg in (string[])["/bin/sh", "-c", Redirect, log, file, .. args])
        {
            start.ArgumentList.Add(arg);
        }

        Configure(start, command);
        Directory.CreateDirectory(Path.GetDirectoryName(log)!);
        Directory.CreateDirectory(Path.GetDirectoryName(pidFile)!);
        using var process = Process.Start(start) ?? throw new StackStartException($"{command.File} did not start");
        File.WriteAllText(pidFile, process.Id.ToString(CultureInfo.InvariantCulture) + "\n");
        return process.Id;
    }

    /// <summary>The program and arguments, run as the postgres user when the command asks and the caller is root:
    /// setpriv for a long-running part (it execs, so the PID stays the program's), runuser for a tool that returns.</summary>
    public static (string File, IReadOnlyList<string> Args) AsUser(Command command, bool longRunning)
    {
        if (command.RunAs != RunAs.Postgres || !IsRoot)
        {
            return (command.File, command.Args);
        }

        return longRunning
            ? ("setpriv", ["--reuid=postgres", "--regid=postgres", "--init-groups", command.File, .. command.Args])
            : ("runuser", ["-u", "postgres", "--", command.File, .. command.Args]);
    }

    /// <summary>The caller's environment, then the command's on top; its working folder.</summary>
    public static void Configure(ProcessStartInfo start, Command command)
    {
        foreach (var (key, value) in command.EffectiveEnv())
        {
            start.Environment[key] = value;
        }

        if (command.WorkDir is not null)
        {
            start.WorkingDirectory = command.WorkDir;
        }
    }
}
