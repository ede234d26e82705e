using Microsoft.Extensions.Configuration;
using Npgsql;

namespace Slots.Storage.Postgres.Tests;

public sealed partial class PostgresHotPathTests
{
    /// <summary>
    /// The per-person and per-booking tables are empty when a campaign opens, and an ANALYZE then (autovacuum's) tells
    /// the planner so. A session that made its plans of the batch from those statistics kept them while the stampede
    /// filled the tables, and read them whole for every booking. Once the changes outgrow the statistics they are
    /// refreshed, and the session plans again, by the tables' indexes.
    /// </summary>
    [Fact]
    public async Task Tables_analyzed_empty_and_then_filled_are_analyzed_again_and_the_batch_reads_them_by_index()
    {
        await SeatsAsync(minute: 900, capacity: 5);
        // The default service under an age rule (the shape the stampede's plan went wrong in), open to the bookings below.
        await ExecuteAsync("""
            INSERT INTO service_eligibility (service_id, rule) VALUES (1, 1);
            INSERT INTO service_age_steps (service_id, opens_at, born_on_or_before) VALUES (1, 0, DATE '1960-12-31')
            """);
        await ExecuteAsync("ANALYZE hot_reservations, active_persons, idempotency, reservations, hot_seats, service_eligibility, service_age_steps");
        // slots_apply plans each statement once per session (plan_cache_mode on the function), so its first call plans for
        // the statistics as they are now.
        await using var session = await _first!.OpenConnectionAsync();
        // Planned for empty tables, it reads them whole: right while they are.
        Assert.Contains("hot_reservations", await ScansOfOneBatchAsync(session, "a"));

        // A stampede's first bookings; statistics of this server's stats system, sent at the insert's commit.
        await ExecuteAsync($"""
            SELECT pg_stat_force_next_flush();
            INSERT INTO hot_reservations (code, place_id, day, start_minute, seat_no, minutes, starts_at, person_hash, phone, name, language, created_at, idem_key, fingerprint)
            SELECT 'FILL-' || n, {_place}, DATE '2099-01-02', 600, n, 10, 5000000000, 'fill-' || n, '+421900000000', 'Fill', 'sk', 0, 'fill-key-' || n, 'f'
            FROM generate_series(1, 20000) n;
            INSERT INTO active_persons (person_hash, service_id, code, ends_at) SELECT 'fill-' || n, 1, 'FILL-' || n, 5000000000 FROM generate_series(1, 20000) n
            """);
        // Still planned for empty tables: it reads 20,000 rows of each for one booking.
        var stale = await ScansOfOneBatchAsync(session, "b");
        Assert.Contains("hot_reservations", stale);
        Assert.Contains("active_persons", stale);

        var statistics = new PostgresStatistics(_first!, new StatisticsOptions(), Microsoft.Extensions.Logging.Abstractions.NullLogger<PostgresStatistics>.Instance);
        var analyzed = await statistics.RefreshAsync(TestContext.Current.CancellationToken);
        Assert.Contains("public.hot_reservations", analyzed);
        Assert.Contains("public.active_persons", analyzed);
        var fresh = await ScansOfOneBatchAsync(session, "c");
        Assert.DoesNotContain("hot_reservations", fresh);
        Assert.DoesNotContain("active_persons", fresh);
        // Nothing has changed since: a second pass analyzes none of them again.
        Assert.DoesNotContain("public.hot_reservations", await statistics.RefreshAsync(TestContext.Current.CancellationToken));
    }

    /// <summary>
    /// The batch's statements over its arrays looked cheaper planned with the arrays' values than generic at every
    /// call, so the plan cache planned them again at every call (the reservation's insert, the second dose's seat
    /// search). Each session plans them once: a plan that refers to the parameters, not one with the values folded in.
    /// </summary>
    [Fact]
    public async Task The_batch_plans_its_statements_once_per_session_instead_of_at_every_call()
    {
        await SeatsAsync(minute: 900, capacity: 5);
        await using var session = await _first!.OpenConnectionAsync();
        var plans = new List<string>();
        session.Notice += (_, e) =>
        {
            if (e.Notice.MessageText.Contains("INSERT INTO idempotency", StringComparison.Ordinal))
            {
                plans.Add(e.Notice.MessageText);
            }
        };
        // Every executed statement's plan, nested ones too, sent to this session as a notice.
        await ExecuteAsync(session, """
            LOAD 'auto_explain';
            SET auto_explain.log_min_duration = 0;
            SET auto_explain.sample_rate = 1;
            SET auto_explain.log_nested_statements = on;
            SET auto_explain.log_level = notice
            """);

        // Past the plan cache's five plans with the values before it weighs a generic one.
        for (var call = 0; call < 8; call++)
        {
            await ScansOfOneBatchAsync(session, $"once{call}");
        }

        Assert.Equal(8, plans.Count);
        Assert.All(plans, plan =>
        {
            // A custom plan shows an array's value in place of the parameter: ('{...}'::integer[])[t].
            Assert.DoesNotContain("[])[", plan, StringComparison.Ordinal);
            Assert.Matches(@"\(\$\d+\)\[", plan);
        });
    }

    /// <summary>
    /// One booking at minute 900 through slots_apply in a transaction of its own on <paramref name="session"/>, rolled back;
    /// the booking tables it read whole, with how many times ("" for none). The session's counts not yet sent to the
    /// stats system include its earlier transactions', so the call's are the difference.
    /// </summary>
    private async Task<string> ScansOfOneBatchAsync(NpgsqlConnection session, string person)
    {
        const string Counts = """
            SELECT t.relname, coalesce(x.seq_scan, 0) FROM unnest(ARRAY['hot_reservations', 'active_persons', 'idempotency', 'reservations']) AS t(relname)
            LEFT JOIN pg_stat_xact_user_tables x ON x.relname = t.relname ORDER BY t.relname DESC
            """;
        await using var tx = await session.BeginTransactionAsync();
        var before = await CountsAsync(session, tx, Counts);
        await using (var call = new NpgsqlCommand($"""
            SELECT count(*) FILTER (WHERE r.o_status = 1)
            FROM slots_apply(ARRAY[1], ARRAY[{_place}], ARRAY[DATE '2099-01-01'], ARRAY[900], ARRAY[1], ARRAY['plan-{person}'], ARRAY['+421900000001'],
                             ARRAY['A'], ARRAY['sk'], ARRAY['C-P{person}'], ARRAY['plan-k{person}'], ARRAY['f{person}'], ARRAY[{Now.ToUnixTimeSeconds()}]::bigint[],
                             ARRAY[DATE '1950-01-01'], NULL, NULL, NULL, NULL, NULL, NULL, NULL) r
            """, session, tx))
        {
            Assert.Equal(1L, (long)(await call.ExecuteScalarAsync())!);
        }
        var after = await CountsAsync(session, tx, Counts);
        await tx.RollbackAsync();
        return string.Join(", ", after.Where(a => a.Value > before[a.Key]).Select(a => $"{a.Key} {a.Value - before[a.Key]}"));
    }

    private static async Task<Dictionary<string, long>> CountsAsync(NpgsqlConnection session, NpgsqlTransaction tx, string sql)
    {
        var counts = new Dictionary<string, long>();
        await using var read = new NpgsqlCommand(sql, session, tx);
        await using var rows = await read.ExecuteReaderAsync();
        while (await rows.ReadAsync())
        {
            counts.Add(rows.GetString(0), rows.GetInt64(1));
        }
        return counts;
    }

    [Theory]
    [InlineData("-00:00:01", "1000")]
    [InlineData("02:00:00", "1000")]
    [InlineData("00:00:01", "0")]
    public void Statistics_options_out_of_range_stop_the_start_naming_the_section(string interval, string minimum)
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            [$"{StatisticsOptions.Section}:Interval"] = interval,
            [$"{StatisticsOptions.Section}:MinimumChanges"] = minimum,
        }).Build();
        var error = Assert.Throws<InvalidOperationException>(() => StatisticsOptions.Read(configuration));
        Assert.StartsWith(StatisticsOptions.Section, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Statistics_options_default_to_every_second_after_a_thousand_changes_and_zero_turns_them_off()
    {
        var none = StatisticsOptions.Read(new ConfigurationBuilder().Build());
        Assert.Equal(TimeSpan.FromSeconds(1), none.Interval);
        Assert.Equal(1_000, none.MinimumChanges);
        var off = StatisticsOptions.Read(new ConfigurationBuilder().AddInMemoryCollection(
            new Dictionary<string, string?> { [$"{StatisticsOptions.Section}:Interval"] = "00:00:00" }).Build());
        Assert.Equal(TimeSpan.Zero, off.Interval);
    }
}
