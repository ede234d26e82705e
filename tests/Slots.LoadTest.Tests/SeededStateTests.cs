using Npgsql;
using Slots.LoadTest.Data;
using Slots.Testing;

namespace Slots.LoadTest.Tests;

public sealed class SeededStateTests
{
    // A rule's cost is read from runs one after the other; a checkpoint that one run set off and the next one paid for
    // moved the same scenario between runs. Every run after a reset starts right after a checkpoint of its own.
    [Fact]
    public async Task On_PostgreSQL_a_reset_puts_every_seat_back_vacuums_what_it_updated_and_ends_with_a_checkpoint()
    {
        var ct = TestContext.Current.CancellationToken;
        var server = await Unavailable.SkipOrFailAsync(PostgresServer.SharedAsync);
        var db = await server.CreateDatabaseAsync("reset" + Guid.NewGuid().ToString("N")[..12], ct);
        using var host = new ApiHost(settings: new Dictionary<string, string?> { ["Slots:Storage:Provider"] = "Postgres", ["ConnectionStrings:Slots"] = db });
        host.Start();
        await Seeder.RunAsync(Provider.Postgres, db, SmokeTests.Small, ct);
        await ScalarAsync(db, "UPDATE hot_seats SET code = 'TAKEN' || seat_no WHERE seat_no = 1", ct);
        var before = await ScalarAsync(db, "SELECT redo_lsn::text FROM pg_control_checkpoint()", ct);

        var reset = await SeededState.RestoreAsync(Provider.Postgres, db, ct);

        Assert.Equal(SmokeTests.Small.Places * SmokeTests.Small.Days * 4, reset.SeatsFreed);
        Assert.Equal("0", await ScalarAsync(db, "SELECT count(*) FROM hot_seats WHERE code IS NOT NULL", ct));
        Assert.True(reset.Checkpointed);
        // The codes given back are vacuumed with the seats, so the next run does not prune the reset's row versions.
        Assert.Equal("2", await ScalarAsync(db, "SELECT count(*) FROM pg_stat_user_tables WHERE relname IN ('hot_seats', 'invitation_codes') AND last_vacuum IS NOT NULL", ct));
        // The checkpoint's redo point is past the reset's own writes, so it moved.
        Assert.NotEqual(before, await ScalarAsync(db, "SELECT redo_lsn::text FROM pg_control_checkpoint()", ct));
    }

    private static async Task<string?> ScalarAsync(string db, string sql, CancellationToken ct)
    {
        await using var connection = new NpgsqlConnection(db);
        await connection.OpenAsync(ct);
        await using var command = new NpgsqlCommand(sql, connection);
        return (await command.ExecuteScalarAsync(ct))?.ToString();
    }
}
