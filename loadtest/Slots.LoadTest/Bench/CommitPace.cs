using System.Globalization;
using System.Text.Json;
using Npgsql;
using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Bench;

/// <summary>
/// The database's own commit pace (commit.json): one pgbench client commits a one-row insert <see cref="PerSecond"/> times a
/// second into a scratch table of its own, with the server's fsync and synchronous_commit, and pgbench's per-transaction log
/// gives each commit's time. A latency that waits for a durable commit (the waiting list's claim: one commit) reads against
/// it, as the throughput reads against wrk: on a virtual machine's disk the WAL's flush has a tail that no path of Slots sets.
/// </summary>
internal static class CommitPace
{
    public const int PerSecond = 50;

    public static async Task RunAsync(BenchHost host, string db, string? pgBin, int seconds, string output, CancellationToken ct)
    {
        var pgbench = Ceiling.Pgbench(pgBin);
        var cs = new NpgsqlConnectionStringBuilder(db) { Pooling = false };
        await using var connection = new NpgsqlConnection(cs.ConnectionString);
        await connection.OpenAsync(ct);
        var folder = Directory.CreateDirectory(Path.Combine(host.Work, "commit-pace")).FullName;
        var script = Path.Combine(folder, "insert.sql");
        await File.WriteAllTextAsync(script, "INSERT INTO commit_pace DEFAULT VALUES;\n", ct);
        await Ceiling.ExecuteAsync(connection, "DROP TABLE IF EXISTS commit_pace; CREATE TABLE commit_pace (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY)", ct);
        try
        {
            var report = Path.Combine(folder, "pgbench.txt");
            var code = await host.RunAsync([.. host.Split.Generator, pgbench, "-n", "-c", "1", "-R", $"{PerSecond}", "-T", $"{seconds}", "-l",
                "--log-prefix", Path.Combine(folder, "commit"), "-f", script], ct, report, Ceiling.Libpq(cs));
            if (code != 0)
            {
                throw new InvalidOperationException($"pgbench failed:\n{await File.ReadAllTextAsync(report, ct)}");
            }
            // pgbench's log: commit.<pid>, one file for its one thread.
            var logs = Directory.GetFiles(folder, "commit.*");
            var yardstick = new CommitYardstick("pgbench", PerSecond, seconds, await Ceiling.DurableAsync(connection, ct),
                LatencyStats.Of(Latencies(logs.SelectMany(File.ReadLines))).Rounded());
            await File.WriteAllTextAsync(output, JsonSerializer.Serialize(yardstick, RunReport.Json), ct);
            Console.WriteLine(Line(yardstick));
        }
        finally
        {
            await Ceiling.ExecuteAsync(connection, "DROP TABLE IF EXISTS commit_pace", CancellationToken.None);
        }
    }

    /// <summary>
    /// Each transaction's time in ms from pgbench's log lines ("client transaction time_us script epoch epoch_us [lag]");
    /// a transaction that was skipped or failed has a word in place of its time and is left out.
    /// </summary>
    internal static List<double> Latencies(IEnumerable<string> lines) =>
        [.. lines.Select(l => l.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            .Where(f => f.Length >= 3)
            .Select(f => long.TryParse(f[2], NumberStyles.None, CultureInfo.InvariantCulture, out var us) ? us / 1000.0 : -1)
            .Where(ms => ms >= 0)];

    /// <summary>The yardstick in one line, as the summary gives it.</summary>
    public static string Line(CommitYardstick c) => string.Create(CultureInfo.InvariantCulture,
        $"the database's commits ({c.Tool}, one client, {c.PerSecond} one-row commits a second for {c.Seconds:0} s, {(c.Durable ? "durable" : "NOT durable")}): " +
        $"p50 {c.Commits.P50:0.00} ms, p99 {c.Commits.P99:0.00} ms, max {c.Commits.Max:0.00} ms over {c.Commits.Count:N0}");
}
