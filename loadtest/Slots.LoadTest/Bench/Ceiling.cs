using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using Npgsql;

namespace Slots.LoadTest.Bench;

/// <summary>
/// The ceiling: the real path's bookings as bare set-based SQL on the same PostgreSQL server and seeded data (pgbench,
/// loadtest/ceiling/book.sql: batches of bookings in one statement per transaction, durable), in a scratch table of its
/// own (setup.sql, dropped with teardown.sql, which also frees the seats it took). What the database alone can book;
/// the summary divides the real path's bookings per second by it.
/// </summary>
internal static class Ceiling
{
    public static async Task RunAsync(BenchHost host, string db, string? pgBin, int seconds, int clients, int batch, string output, CancellationToken ct)
    {
        var folder = Path.Combine(host.Root, "loadtest", "ceiling");
        var pgbench = Pgbench(pgBin);
        var cs = new NpgsqlConnectionStringBuilder(db) { Pooling = false };
        await using var connection = new NpgsqlConnection(cs.ConnectionString);
        await connection.OpenAsync(ct);
        // The seeded places (the seeder numbers them from 1; a waiting-room place made later is not in the range).
        var (first, last) = await RangeAsync(connection, "SELECT min(id), max(id) FROM places WHERE name LIKE 'Load site %'", ct);
        if (first is null || last is null)
        {
            throw new InvalidOperationException("ceiling: no seeded places (Slots.LoadTest seed) in this database");
        }
        await ExecuteAsync(connection, await File.ReadAllTextAsync(Path.Combine(folder, "setup.sql"), ct), ct);
        try
        {
            var log = Path.Combine(host.Work, "pgbench.log");
            var environment = Libpq(cs);
            environment["PGOPTIONS"] = "-c synchronous_commit=on";
            var code = await host.RunAsync([.. host.Split.Generator, pgbench, "-n", "-M", "prepared", "-c", $"{clients}", "-j", "2", "-T", $"{seconds}",
                "-D", $"first={first}", "-D", $"last={last}", "-D", $"batch={batch}", "-f", Path.Combine(folder, "book.sql")], ct, log, environment);
            var report = await File.ReadAllTextAsync(log, ct);
            if (code != 0)
            {
                throw new InvalidOperationException($"pgbench failed:\n{report}");
            }
            var bookings = await CountAsync(connection, "SELECT count(*) FROM ceiling_bookings", ct);
            // The seats book.sql draws from: a run that books a large share of them measures "slot full" more than booking.
            var inRange = await CountAsync(connection, $"SELECT count(*) FROM hot_seats WHERE place_id BETWEEN {first} AND {last} AND day BETWEEN current_date + 1 AND current_date + 28", ct);
            var durable = await DurableAsync(connection, ct);
            var figures = Figures(report, bookings, seconds, clients, batch, last.Value - first.Value + 1, inRange, durable);
            await File.WriteAllTextAsync(output, figures.ToJsonString(new JsonSerializerOptions { WriteIndented = true }), ct);
            Console.WriteLine($"ceiling: {bookings} bookings in {figures["transactions"]} transactions, {figures["bookingsPerSecond"]}/s ({clients} clients, {batch} per transaction, {figures["transactionsPerSecond"]} transactions/s, durable {(durable ? "on" : "off")})");
        }
        finally
        {
            await ExecuteAsync(connection, await File.ReadAllTextAsync(Path.Combine(folder, "teardown.sql"), CancellationToken.None), CancellationToken.None);
        }
    }

    /// <summary>
    /// pgbench's report as figures: per second as pgbench timed its transactions (without connecting), times the bookings a
    /// transaction made.
    /// </summary>
    internal static JsonObject Figures(string report, long bookings, int seconds, int clients, int batch, long places, long inRange, bool durable)
    {
        double Field(string prefix, int index) => report.Split('\n').FirstOrDefault(l => l.StartsWith(prefix, StringComparison.Ordinal)) is { } line
            && double.TryParse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[index], NumberStyles.Float, CultureInfo.InvariantCulture, out var v) ? v : 0;
        var tps = Field("tps = ", 2);
        var processed = Field("number of transactions actually processed:", 5);
        return new JsonObject
        {
            ["tool"] = "pgbench",
            ["bookingsPerSecond"] = processed > 0 ? Math.Round(tps * bookings / processed, 1) : 0,
            ["bookings"] = bookings,
            ["transactions"] = processed,
            ["seconds"] = seconds,
            ["clients"] = clients,
            ["batch"] = batch,
            ["transactionsPerSecond"] = tps,
            ["latencyAverageMs"] = Field("latency average = ", 3),
            ["failedTransactions"] = Field("number of failed transactions:", 4),
            ["places"] = places,
            ["seatsInRange"] = inRange,
            ["durable"] = durable,
        };
    }

    /// <summary>pgbench of the server's own binaries where they are known, else the one on the PATH.</summary>
    internal static string Pgbench(string? pgBin) => (pgBin ?? OwnPostgres.NewestBin()) is { } bin ? Path.Combine(bin, "pgbench") : "pgbench";

    /// <summary>libpq's environment for a client of the server the connection string names.</summary>
    internal static Dictionary<string, string> Libpq(NpgsqlConnectionStringBuilder cs) => new()
    {
        ["PGHOST"] = cs.Host ?? "127.0.0.1",
        ["PGPORT"] = cs.Port.ToString(CultureInfo.InvariantCulture),
        ["PGDATABASE"] = cs.Database ?? "slots",
        ["PGUSER"] = cs.Username ?? "postgres",
        ["PGPASSWORD"] = cs.Password ?? "",
    };

    /// <summary>Whether the server flushes each commit: fsync and synchronous_commit both on.</summary>
    internal static async Task<bool> DurableAsync(NpgsqlConnection connection, CancellationToken ct) =>
        await CountAsync(connection, "SELECT (current_setting('fsync') = 'on' AND current_setting('synchronous_commit') = 'on')::int", ct) == 1;

    private static async Task<long> CountAsync(NpgsqlConnection connection, string sql, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(sql, connection);
        return Convert.ToInt64(await command.ExecuteScalarAsync(ct), CultureInfo.InvariantCulture);
    }

    private static async Task<(long? First, long? Second)> RangeAsync(NpgsqlConnection connection, string sql, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(sql, connection);
        await using var reader = await command.ExecuteReaderAsync(ct);
        await reader.ReadAsync(ct);
        return (reader.IsDBNull(0) ? null : Convert.ToInt64(reader.GetValue(0), CultureInfo.InvariantCulture),
            reader.IsDBNull(1) ? null : Convert.ToInt64(reader.GetValue(1), CultureInfo.InvariantCulture));
    }

    internal static async Task ExecuteAsync(NpgsqlConnection connection, string sql, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(sql, connection);
        await command.ExecuteNonQueryAsync(ct);
    }
}
