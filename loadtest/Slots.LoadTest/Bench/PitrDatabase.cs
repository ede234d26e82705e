using System.Diagnostics;
using Npgsql;

namespace Slots.LoadTest.Bench;

/// <summary>
/// The stack's slots database as bench-pitr uses it, through the HAProxy listener that routes to the Patroni primary.
/// A connection of its own per statement, as psql made them: the drop and the restore end every session, and a pooled
/// one would carry a dead socket across them.
/// </summary>
internal sealed class PitrDatabase(int port)
{
    private readonly string _connection = $"Host=127.0.0.1;Port={port};Database=slots;Username=postgres;Pooling=false;Command Timeout=0";

    /// <summary>
    /// 100 places, their slots for 30 days (17 a day from 08:00, 10 minutes each) and <paramref name="perSlot"/> free seats
    /// a slot in hot_seats, in one transaction. The places stay: run it on a stack made for it.
    /// </summary>
    public async Task SeedAsync(int perSlot, CancellationToken ct)
    {
        await using var db = await OpenAsync(ct);
        await using var transaction = await db.BeginTransactionAsync(ct);
        await using var batch = new NpgsqlBatch(db, transaction)
        {
            BatchCommands =
            {
                new("""
                    CREATE TEMP TABLE pitr_places ON COMMIT DROP AS
                    WITH made AS (
                      INSERT INTO places (name, address, region, time_zone, hot_until)
                      SELECT 'PITR ' || g || ' ' || md5(random()::text), 'Hlavná ' || g, 'PITR', 'Europe/Bratislava', current_date + 30
                      FROM generate_series(1, 100) g RETURNING id)
                    SELECT id FROM made
                    """),
                new("""
                    INSERT INTO slots (place_id, day, start_minute, minutes, capacity, starts_at)
                    SELECT p.id, current_date + d, 480 + 10 * s, 10, $1, extract(epoch FROM (current_date + d)::timestamp)::bigint + 60 * (480 + 10 * s)
                    FROM pitr_places p, generate_series(1, 30) d, generate_series(0, 16) s
                    """) { Parameters = { new() { Value = perSlot } } },
                new("""
                    INSERT INTO hot_seats (place_id, day, start_minute, seat_no, minutes, starts_at, code)
                    SELECT place_id, day, start_minute, n, minutes, starts_at, NULL
                    FROM slots JOIN pitr_places p ON p.id = slots.place_id, generate_series(1, $1) n
                    """) { Parameters = { new() { Value = perSlot } } },
            },
        };
        await batch.ExecuteNonQueryAsync(ct);
        await transaction.CommitAsync(ct);
    }

    /// <summary>The database's size as pg_size_pretty writes it.</summary>
    public Task<string> SizeAsync(CancellationToken ct) => ScalarAsync<string>("SELECT pg_size_pretty(pg_database_size('slots'))", ct);

    /// <summary>A commit (a mark in pitr_marks); then how long until the WAL segment that holds it is in the repository.</summary>
    public async Task<TimeSpan> RecoveryPointAsync(TimeSpan limit, CancellationToken ct)
    {
        var clock = Stopwatch.StartNew();
        await ExecuteAsync("CREATE TABLE IF NOT EXISTS pitr_marks (at timestamptz); INSERT INTO pitr_marks VALUES (clock_timestamp())", ct);
        var file = await ScalarAsync<string>("SELECT pg_walfile_name(pg_current_wal_insert_lsn())", ct);
        while (!PitrOptions.Archived(await ScalarAsync<string?>("SELECT last_archived_wal FROM pg_stat_archiver", ct), file))
        {
            if (clock.Elapsed > limit)
            {
                throw new InvalidOperationException($"WAL file {file} was not archived within {limit.TotalMinutes:0} minutes; is archiving on (./slots stack status)?");
            }
            await Task.Delay(200, ct);
        }
        return clock.Elapsed;
    }

    /// <summary>A mark, then the moment after it as a restore target (UTC, microseconds, PostgreSQL's timestamptz syntax).</summary>
    public async Task<string> MarkAsync(CancellationToken ct)
    {
        await ExecuteAsync("INSERT INTO pitr_marks VALUES (clock_timestamp())", ct);
        return await ScalarAsync<string>("SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'", ct);
    }

    public Task<long> HotSeatsAsync(CancellationToken ct) => ScalarAsync<long>("SELECT count(*) FROM hot_seats", ct);

    public Task DropHotSeatsAsync(CancellationToken ct) => ExecuteAsync("DROP TABLE hot_seats", ct);

    private async Task ExecuteAsync(string sql, CancellationToken ct)
    {
        await using var db = await OpenAsync(ct);
        await using var command = new NpgsqlCommand(sql, db);
        await command.ExecuteNonQueryAsync(ct);
    }

    private async Task<T> ScalarAsync<T>(string sql, CancellationToken ct)
    {
        await using var db = await OpenAsync(ct);
        await using var command = new NpgsqlCommand(sql, db);
        var value = await command.ExecuteScalarAsync(ct);
        return value is DBNull or null ? default! : (T)value;
    }

    private async Task<NpgsqlConnection> OpenAsync(CancellationToken ct)
    {
        var db = new NpgsqlConnection(_connection);
        await db.OpenAsync(ct);
        return db;
    }
}
