namespace Slots.Topology;

/// <summary>A deliberate difference between the loopback stack described here and docker-compose.yml's
/// containers, with the reason it stays.</summary>
public sealed record KnownDifference(string Subject, string Loopback, string Container, string Reason);

/// <summary>Every deliberate difference from compose, in one table (the compose check reads it).</summary>
public static class KnownDifferences
{
    public static IReadOnlyList<KnownDifference> All { get; } =
    [
        new(
            "etcd timing",
            "--heartbeat-interval 200 --election-timeout 2000",
            "etcd's defaults (100 ms heartbeat, 1000 ms election timeout)",
            "Tuned for a starved 2-core machine, where a 100 ms heartbeat is missed now and then and a needless election " +
            "costs Patroni a DCS round trip; containers get CPUs of their own."),
        new(
            "PostgreSQL connection budget",
            "not set: each host checks against the option's default (4 processes)",
            "Slots__Storage__Postgres__ConnectionBudget__Processes: \"6\"",
            "Compose fixes its replica counts in the file and states their sum; on loopback the count follows " +
            "SLOTS_API_COUNT and SLOTS_SCHEDULER_COUNT (the lead's decision on issue 38 item 6: keep as a known difference)."),
    ];
}
