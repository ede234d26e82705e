namespace Slots.Topology.Run;

/// <summary>HAProxy's start: the configuration checked with the node's own environment first (a bad variable
/// fails here, naming the node, instead of in a log), and the previous run's log kept.</summary>
public static class Haproxy
{
    public static async Task PrepareAsync(Node node, string logs)
    {
        var args = node.Start!.Args.Where(a => a != "-W").ToList();
        var check = node.Start with { Args = ["-c", "-q", .. args] };
        var (code, stdout, stderr) = await Tool.TryRunAsync(check, TimeSpan.FromSeconds(30));
        if (code != 0)
        {
            throw new StackStartException($"{node.Name}: haproxy -c refused haproxy/haproxy.cfg: {(stderr + stdout).Trim()}");
        }

        KeepPreviousLog(Path.Combine(logs, $"{node.Name}.log"));
    }

    /// <summary>A restarted HAProxy writes its log from the start of the file, over the lines of the one before
    /// (it resets stdout's flags, append included): those move to NAME.previous.log first.</summary>
    public static void KeepPreviousLog(string log)
    {
        if (!File.Exists(log) || new FileInfo(log).Length == 0)
        {
            return;
        }

        var previous = Path.Combine(Path.GetDirectoryName(log)!, Path.GetFileNameWithoutExtension(log) + ".previous.log");
        File.AppendAllText(previous, File.ReadAllText(log));
        File.WriteAllText(log, "");
    }
}
