using Npgsql;

namespace Slots.Storage.Postgres.Tests;

public sealed partial class PostgresHotPathTests
{
    /// <summary>
    /// The per-person and per-booking tables are empty when a campaign opens (or right after a purge), and an ANALYZE
    /// then (autovacuum's, a minute in) tells the planner so. A batch planned from those statistics scanned each table
    /// whole for every booking, and kept that plan while the stampede filled them: 10 ms a call instead of 1 at 19,000
    /// rows. The batch reads them by their indexes whatever the statistics say.
    /// </summary>
    [Fact]
    public async Task A_batch_after_the_tables_were_analyzed_empty_reads_them_by_index_not_whole()
    {
        await SeatsAsync(minute: 900, capacity: 5);
        // The default service under an age rule (the shape the stampede's plan went wrong in), open to the bookings below.
        await ExecuteAsync("""
            INSERT INTO service_eligibility (service_id, rule) VALUES (1, 1);
            INSERT INTO service_age_steps (service_id, opens_at, born_on_or_before) VALUES (1, 0, DATE '1960-12-31')
            """);
        await ExecuteAsync("ANALYZE hot_reservations, active_persons, idempotency, reservations, hot_seats, service_eligibility, service_age_steps");

        await using var connection = await _first!.OpenConnectionAsync();
        await using var tx = await connection.BeginTransactionAsync();
        await using (var call = new NpgsqlCommand($"""
            SELECT count(*) FILTER (WHERE r.o_status = 1)
            FROM slots_apply(ARRAY[1, 1, 1], ARRAY[{_place}, {_place}, {_place}], ARRAY[DATE '2099-01-01', DATE '2099-01-01', DATE '2099-01-01'],
                             ARRAY[900, 900, 900], ARRAY[1, 1, 1], ARRAY['plan-a', 'plan-b', 'plan-c'], ARRAY['+421900000001', '+421900000002', '+421900000003'],
                             ARRAY['A', 'B', 'C'], ARRAY['sk', 'sk', 'sk'], ARRAY['C-PA', 'C-PB', 'C-PC'], ARRAY['plan-ka', 'plan-kb', 'plan-kc'],
                             ARRAY['fa', 'fb', 'fc'], ARRAY[{Now.ToUnixTimeSeconds()}, {Now.ToUnixTimeSeconds()}, {Now.ToUnixTimeSeconds()}]::bigint[],
                             ARRAY[DATE '1950-01-01', DATE '1950-01-01', DATE '1950-01-01'], NULL, NULL, NULL, NULL, NULL, NULL, NULL) r
            """, connection, tx))
        {
            Assert.Equal(3L, (long)(await call.ExecuteScalarAsync())!);
        }
        await using var scans = new NpgsqlCommand("""
            SELECT string_agg(relname || ' ' || seq_scan, ', ' ORDER BY relname) FROM pg_stat_xact_user_tables
            WHERE relname IN ('hot_reservations', 'active_persons', 'idempotency', 'reservations', 'hot_seats') AND seq_scan > 0
            """, connection, tx);
        // Tables scanned whole in this transaction, with how many times; none.
        Assert.Null(await scans.ExecuteScalarAsync() as string);
        await tx.RollbackAsync();
    }
}
