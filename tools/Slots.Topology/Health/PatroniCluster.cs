using System.Text.Json;

namespace Slots.Topology.Run;

/// <summary>Patroni's /cluster as any node serves it: each member's name, role, state and replication lag.</summary>
public static class PatroniCluster
{
    public sealed record Member(string Name, string Role, string State, string Lag)
    {
        /// <summary>Patroni has called the leader "leader", "master" and "primary" across versions.</summary>
        public bool Leads => Role is "leader" or "master" or "primary" or "standby_leader";

        public bool Synchronous => Role.StartsWith("sync", StringComparison.Ordinal);

        public bool Serving => State is "running" or "streaming";
    }

    public static IReadOnlyList<Member> Parse(string json)
    {
        using var document = JsonDocument.Parse(json);
        if (!document.RootElement.TryGetProperty("members", out var members) || members.ValueKind != JsonValueKind.Array)
        {
            return [];
        }

        return [.. members.EnumerateArray().Select(m => new Member(
            Text(m, "name") ?? "?", Text(m, "role") ?? "?", Text(m, "state") ?? "?", Text(m, "lag") ?? "0"))];
    }

    /// <summary>A running leader and a synchronous standby that runs or streams: a commit is on two nodes.</summary>
    public static bool Synced(IReadOnlyList<Member> members) =>
        members.Any(m => m.Leads && m.State == "running") && members.Any(m => m.Synchronous && m.Serving);

    public static string? Leader(IReadOnlyList<Member> members) => members.FirstOrDefault(m => m.Leads)?.Name;

    /// <summary>The cluster as the first of <paramref name="restPorts"/> that answers sees it.</summary>
    public static async Task<IReadOnlyList<Member>?> ReadAsync(HttpClient http, IEnumerable<int> restPorts, CancellationToken ct)
    {
        foreach (var port in restPorts)
        {
            var json = await Probes.GetTextAsync(http, new Uri($"http://127.0.0.1:{port}/cluster"), ct);
            if (json is not null)
            {
                try
                {
                    return Parse(json);
                }
                catch (JsonException)
                {
                }
            }
        }

        return null;
    }

    private static string? Text(JsonElement element, string name) =>
        element.TryGetProperty(name, out var value)
            ? value.ValueKind == JsonValueKind.String ? value.GetString() : value.GetRawText()
            : null;
}
