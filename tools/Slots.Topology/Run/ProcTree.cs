using System.Globalization;

namespace Slots.Topology.Run;

/// <summary>What /proc says about processes: whether one runs, its children, a RabbitMQ node's Erlang VM. Read
/// straight from /proc instead of spawning kill, pgrep or ps, so `status` and the chaos soak's pid look-ups cost
/// no process each.</summary>
public static class ProcTree
{
    /// <summary>Runs: it exists and is no zombie. A killed process that is not yet reaped (seconds on a busy
    /// machine) still answers kill -0, but state Z (or X) in /proc/PID/stat says it is gone.</summary>
    public static bool Alive(int pid)
    {
        if (pid <= 0)
        {
            return false;
        }

        var stat = Stat(pid);
        return stat is not null && stat.Value.State is not ('Z' or 'X');
    }

    /// <summary>The PID in a PID file (the first line, as postmaster.pid has it), or null when there is none.</summary>
    public static int? ReadPidFile(string path)
    {
        try
        {
            var first = File.ReadLines(path).FirstOrDefault();
            return int.TryParse(first?.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out var pid) ? pid : null;
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The PID in the file when that process runs.</summary>
    public static int? AlivePid(string pidFile) => ReadPidFile(pidFile) is { } pid && Alive(pid) ? pid : null;

    /// <summary>The direct children of <paramref name="parent"/> (pgrep -P).</summary>
    public static IReadOnlyList<int> Children(int parent) =>
        [.. Pids().Where(pid => Stat(pid) is { } s && s.Parent == parent).Order()];

    /// <summary>Every process under <paramref name="root"/>: children, their children, and so on.</summary>
    public static IReadOnlyList<int> Descendants(int root)
    {
        var parents = Pids().Select(pid => (Pid: pid, Stat: Stat(pid))).Where(p => p.Stat is not null)
            .ToLookup(p => p.Stat!.Value.Parent, p => p.Pid);
        var found = new List<int>();
        var next = new Queue<int>([root]);
        while (next.TryDequeue(out var pid))
        {
            foreach (var child in parents[pid])
            {
                found.Add(child);
                next.Enqueue(child);
            }
        }

        return found;
    }

    /// <summary>The Erlang VM (beam.smp) under a RabbitMQ start script: its command line does not name the node
    /// (RabbitMQ passes the name in the environment), so it is found as the script's descendant.</summary>
    public static IReadOnlyList<int> Beam(int script) =>
        [.. Descendants(script).Where(pid => CommandLine(pid) is [var program, ..] && program.EndsWith("beam.smp", StringComparison.Ordinal))];

    /// <summary>The process's arguments (NUL-separated in /proc/PID/cmdline), or null when it is gone.</summary>
    public static IReadOnlyList<string>? CommandLine(int pid)
    {
        try
        {
            var text = File.ReadAllText($"/proc/{pid}/cmdline");
            return text.Split('\0', StringSplitOptions.RemoveEmptyEntries);
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>State letter and parent from /proc/PID/stat. The command name in parentheses may hold spaces and
    /// parentheses itself, so the fields are read after the last ')'.</summary>
    private static (char State, int Parent)? Stat(int pid)
    {
        string text;
        try
        {
            text = File.ReadAllText($"/proc/{pid}/stat");
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }

        var close = text.LastIndexOf(')');
        if (close < 0 || close + 2 >= text.Length)
        {
            return null;
        }

        var fields = text[(close + 2)..].Split(' ');
        return fields.Length > 1 && int.TryParse(fields[1], NumberStyles.None, CultureInfo.InvariantCulture, out var parent)
            ? (fields[0][0], parent)
            : null;
    }

    private static IEnumerable<int> Pids() =>
        Directory.EnumerateDirectories("/proc")
            .Select(Path.GetFileName)
            .Select(name => int.TryParse(name, NumberStyles.None, CultureInfo.InvariantCulture, out var pid) ? pid : 0)
            .Where(pid => pid > 0);
}
