namespace Slots.Topology.Run;

/// <summary>HAProxy's stats page as CSV (/stats;csv): one row per frontend, server and backend, the proxy's name
/// in column 1, the server's in column 2 and its status (UP, DOWN, MAINT, "UP 1/3" while checks settle) in 18.</summary>
public static class HaproxyStats
{
    public sealed record Server(string Backend, string Name, string Status)
    {
        public bool Up => Status.StartsWith("UP", StringComparison.Ordinal);
    }

    /// <summary>The servers of every backend: the rows that are neither the FRONTEND nor the BACKEND summary.</summary>
    public static IReadOnlyList<Server> Parse(string csv) =>
        [.. csv.Split('\n')
            .Where(line => line.Length > 0 && line[0] != '#')
            .Select(line => line.Split(','))
            .Where(fields => fields.Length > 17 && fields[1] is not ("FRONTEND" or "BACKEND"))
            .Select(fields => new Server(fields[0], fields[1], fields[17]))];

    /// <summary>The servers of <paramref name="backend"/> that are UP ("api": api1..N; "postgres": the primary).</summary>
    public static IReadOnlyList<string> Up(IReadOnlyList<Server> servers, string backend) =>
        [.. servers.Where(s => s.Backend == backend && s.Up).Select(s => s.Name)];

    /// <summary>The health rule: every one of Count API servers UP; at least Count PostgreSQL servers UP.</summary>
    public static bool Satisfies(IReadOnlyList<Server> servers, Health.HaproxyUp want)
    {
        var up = Up(servers, want.Backend).Count;
        return want.Backend == "api" ? up == want.Count : up >= want.Count;
    }

    public static async Task<IReadOnlyList<Server>?> ReadAsync(HttpClient http, int statsPort, CancellationToken ct)
    {
        var csv = await Probes.GetTextAsync(http, new Uri($"http://127.0.0.1:{statsPort}/stats;csv"), ct);
        return csv is null ? null : Parse(csv);
    }
}
