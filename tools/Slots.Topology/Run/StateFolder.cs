using System.Text.Json;
using System.Text.Json.Serialization;

namespace Slots.Topology.Run;

/// <summary>The state folder (logs/, pids/, tls/, sms/, etcd/, rabbitmq*/) and topology.json in it: the options
/// `up` started the stack with, so that down, status, pids and start need no flags or environment. A folder
/// the scripts started (no topology.json) reads from the environment, as HA when it holds their `ha` marker.</summary>
public static class StateFolder
{
    public static string TopologyFile(string stateDir) => Path.Combine(stateDir, "topology.json");

    public static string HaMarker(string stateDir) => Path.Combine(stateDir, "ha");

    public static void Save(StackOptions options)
    {
        Directory.CreateDirectory(options.StateDir);
        File.WriteAllText(TopologyFile(options.StateDir), JsonSerializer.Serialize(options, StackJson.Default.StackOptions));
        // The scripts know an HA folder by this marker: one they are pointed at reads as HA too.
        if (options.Shape == Shape.Ha)
        {
            File.WriteAllText(HaMarker(options.StateDir), "");
        }
    }

    /// <summary>The saved options, or null when `up` has not written any here.</summary>
    public static StackOptions? Load(string stateDir)
    {
        var file = TopologyFile(stateDir);
        return File.Exists(file) ? JsonSerializer.Deserialize(File.ReadAllText(file), StackJson.Default.StackOptions) : null;
    }

    /// <summary>What a verb other than `up` works on: the saved options, else <paramref name="fromEnvironment"/>
    /// (HA when the scripts' marker is there).</summary>
    public static StackOptions Resolve(StackOptions fromEnvironment) =>
        Load(fromEnvironment.StateDir)
        ?? (File.Exists(HaMarker(fromEnvironment.StateDir)) ? fromEnvironment with { Shape = Shape.Ha } : fromEnvironment);

    /// <summary>Root's PostgreSQL folder: the postgres user must reach it, and under a private home it cannot,
    /// so it lives in /var/tmp then (the scripts' name, so their data is found again).</summary>
    public static async Task<StackOptions> WithPostgresFolderAsync(StackOptions options)
    {
        if (options.PostgresFolder is not null || !Launcher.IsRoot)
        {
            return options;
        }

        Directory.CreateDirectory(options.StateDir);
        var reach = await Tool.TryRunAsync("runuser", ["-u", "postgres", "--", "test", "-x", options.StateDir], TimeSpan.FromSeconds(10));
        return reach.Code == 0 ? options : options with { PostgresFolder = PostgresSettings.FallbackFolder(options.StateDir) };
    }
}

[JsonSourceGenerationOptions(WriteIndented = true, UseStringEnumConverter = true, IgnoreReadOnlyProperties = true)]
[JsonSerializable(typeof(StackOptions))]
internal sealed partial class StackJson : JsonSerializerContext;
