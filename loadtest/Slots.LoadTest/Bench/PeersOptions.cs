using System.Globalization;

namespace Slots.LoadTest.Bench;

/// <summary>
/// What bench-peers measures (./slots bench peers): the write limit per node (--writes, else SLOTS_RATE_WRITES, else the
/// shipped 20) over a rate period of --seconds (10), on seven loopback ports from SLOTS_PEERS_FIRST_PORT (18600) on.
/// </summary>
internal sealed record PeersOptions(int Writes, int Seconds, int FirstPort)
{
    public const string Usage = """
               Slots.LoadTest bench-peers [--writes N (SLOTS_RATE_WRITES, 20)] [--seconds S (10)]
                   (./slots bench peers: a client's write budget across the two HAProxy peers; ports from SLOTS_PEERS_FIRST_PORT, 18600)
        """;

    /// <summary>The options and knobs; null with the problems in <paramref name="errors"/>.</summary>
    public static PeersOptions? From(Args args, Func<string, string?> env, List<string> errors)
    {
        var writes = args.Whole("writes", Knob(env, "SLOTS_RATE_WRITES", 20, 1, 1_000_000, errors), 1, 1_000_000);
        var seconds = args.Whole("seconds", 10, 1, 600);
        // Seven ports from the first: both nodes' fronts, their stats, their peer listeners and the absent API.
        var first = Knob(env, "SLOTS_PEERS_FIRST_PORT", 18600, 1024, 65535 - 6, errors);
        args.RejectUnknown();
        errors.AddRange(args.Errors);
        return errors.Count == 0 ? new PeersOptions(writes, seconds, first) : null;
    }

    /// <summary>The HTTPS front of node 1 or 2, where the client writes.</summary>
    public int Front(int node) => FirstPort + node - 1;

    public int Stats(int node) => FirstPort + 1 + node;

    public int Peer(int node) => FirstPort + 3 + node;

    /// <summary>The API server both nodes name: nobody listens there, so an admitted write is answered 503 at once.</summary>
    public int DeadApi => FirstPort + 6;

    /// <summary>
    /// The counters of one way have to be gone before the next starts: the rate is a sliding estimate over the last two
    /// periods, so two periods and a second of quiet.
    /// </summary>
    public TimeSpan Calm => TimeSpan.FromSeconds((2 * Seconds) + 1);

    /// <summary>Node <paramref name="node"/>'s variables for haproxy/haproxy.cfg: the product's configuration with its peers.</summary>
    public IReadOnlyDictionary<string, string> NodeEnvironment(int node, string tlsCert) => new Dictionary<string, string>
    {
        ["SLOTS_FRONT_BIND"] = Loopback(Front(node)),
        ["SLOTS_STATS_BIND"] = Loopback(Stats(node)),
        ["SLOTS_API_1"] = Loopback(DeadApi),
        ["SLOTS_TLS_CERT"] = tlsCert,
        ["SLOTS_PEER_1"] = Loopback(Peer(1)),
        ["SLOTS_PEER_2"] = Loopback(Peer(2)),
        ["SLOTS_RATE_PERIOD_S"] = Seconds.ToString(CultureInfo.InvariantCulture),
        ["SLOTS_RATE_WRITES"] = Writes.ToString(CultureInfo.InvariantCulture),
    };

    private static string Loopback(int port) => string.Create(CultureInfo.InvariantCulture, $"127.0.0.1:{port}");

    private static int Knob(Func<string, string?> env, string name, int fallback, int min, int max, List<string> errors)
    {
        if (env(name) is not { Length: > 0 } text)
        {
            return fallback;
        }
        if (!int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value) || value < min || value > max)
        {
            errors.Add($"{name} must be a whole number from {min} to {max}; got '{text}'.");
            return fallback;
        }
        return value;
    }
}
