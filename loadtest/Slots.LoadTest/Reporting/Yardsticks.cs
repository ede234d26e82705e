namespace Slots.LoadTest.Reporting;

/// <summary>
/// wrk on the no-op endpoint in the same run, warmed up, with as many connections as the crowd has users
/// (./slots bench, calibration.json): what the HTTP stack answers to a client that costs next to nothing.
/// The generator's no-op divided by it says how much of the machine the generator itself takes.
/// </summary>
public sealed record Calibration(string Tool, double AnswersPerSecond, int Connections, double Seconds, double WarmupSeconds,
    int Targets, double P50Ms, double P99Ms, long Non2xx, long SocketErrors);

/// <summary>
/// The real path's bookings as bare set-based SQL by pgbench on the same PostgreSQL server and seeded data
/// (loadtest/ceiling, ceiling.json): what the database alone books per second on this machine.
/// </summary>
public sealed record Ceiling(string Tool, double BookingsPerSecond, long Bookings, double Seconds, int Clients, int Batch,
    double TransactionsPerSecond, long SeatsInRange, bool Durable);

/// <summary>
/// One pgbench client's one-row commits at a fixed rate on the same PostgreSQL server, right before the waiting list
/// (commit.json): the database's own commit time on this machine, which a latency that waits for a commit cannot beat.
/// </summary>
public sealed record CommitYardstick(string Tool, int PerSecond, double Seconds, bool Durable, LatencyStats Commits);
