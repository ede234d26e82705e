using System.Text.Json;

namespace Slots.Topology.Run;

/// <summary>A RabbitMQ node asked through its own CLI, with the node's environment (name, epmd port, cookie
/// HOME). Each call boots an Erlang VM: poll no faster than the scripts did.</summary>
public static class Rabbit
{
    public const string Ctl = "/usr/lib/rabbitmq/bin/rabbitmqctl";

    public const string Diagnostics = "/usr/lib/rabbitmq/bin/rabbitmq-diagnostics";

    /// <summary>ping on the single stack's node, check_running on an HA node. Only while the stack's own epmd
    /// runs: with none, the CLI would start an epmd daemon of its own and leave it behind.</summary>
    public static async Task<bool> RunningAsync(Node node, bool epmdAlive)
    {
        if (!epmdAlive || node.Start is null)
        {
            return false;
        }

        var check = node.Name == "rabbitmq" ? "ping" : "check_running";
        var run = node.Start with { File = Diagnostics, Args = ["-q", check] };
        return (await Tool.TryRunAsync(run, TimeSpan.FromSeconds(30))).Code == 0;
    }

    /// <summary>How many nodes the cluster runs, as the first node that answers cluster_status says.</summary>
    public static async Task<int> ClusterSizeAsync(IEnumerable<Node> nodes)
    {
        foreach (var node in nodes.Where(n => n.Start is not null))
        {
            var run = node.Start! with { File = Ctl, Args = ["-q", "cluster_status", "--formatter", "json"] };
            var (code, stdout, _) = await Tool.TryRunAsync(run, TimeSpan.FromSeconds(30));
            if (code == 0 && RunningNodes(stdout) is { } size)
            {
                return size;
            }
        }

        return 0;
    }

    public static int? RunningNodes(string json)
    {
        try
        {
            using var document = JsonDocument.Parse(json);
            return document.RootElement.TryGetProperty("running_nodes", out var running) && running.ValueKind == JsonValueKind.Array
                ? running.GetArrayLength()
                : 0;
        }
        catch (JsonException)
        {
            return null;
        }
    }
}
