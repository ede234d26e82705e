using System.Data.Common;
using Microsoft.Data.Sqlite;
using Npgsql;
using Slots.Api.Tests.Postgres;
using Slots.Storage.Postgres;
using Slots.Storage.Sqlite;

namespace Slots.Api.Tests.Storage;

/// <summary>
/// A database from before the hold columns (issue 38), its holds written into the code column
/// ('~h' and the offer id, '~w'), migrates: the columns appear, the old holds move into them, and a
/// booking's code stays where it was. The older database is made by migrating a new one and taking
/// the change back (the columns dropped, the script's record deleted), then migrating again.
/// </summary>
public sealed class SeatHoldMigrationTests : IAsyncDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("slots-holds-").FullName;

    public ValueTask DisposeAsync()
    {
        SqliteConnection.ClearAllPools();
        Directory.Delete(_folder, recursive: true);
        return ValueTask.CompletedTask;
    }

    private const string OldSeats = """
        INSERT INTO hot_seats (place_id, day, start_minute, seat_no, minutes, starts_at, code) VALUES
            (1, '2099-01-01', 480, 1, 10, 4070908800, 'BOOKED-001'),
            (1, '2099-01-01', 480, 2, 10, 4070908800, '~h42'),
            (1, '2099-01-01', 480, 3, 10, 4070908800, '~w'),
            (1, '2099-01-01', 480, 4, 10, 4070908800, NULL)
        """;

    private const string Seats = "SELECT seat_no, code, hold, offer_id FROM hot_seats ORDER BY seat_no";

    private static readonly (int, string?, long, long?)[] Moved =
        [(1, "BOOKED-001", 0, null), (2, null, 1, 42), (3, null, 1, null), (4, null, 0, null)];

    [Fact]
    public async Task An_older_SQLite_database_moves_its_coded_holds_into_the_hold_columns()
    {
        var ct = TestContext.Current.CancellationToken;
        var connectionString = $"Data Source={Path.Combine(_folder, "old.db")}";
        await SqliteSchema.MigrateAsync(connectionString, ct);
        await using (var connection = new SqliteConnection(connectionString))
        {
            await connection.OpenAsync(ct);
            await ExecuteAsync(connection, """
                ALTER TABLE hot_seats DROP COLUMN offer_id;
                ALTER TABLE hot_seats DROP COLUMN hold;
                DELETE FROM schema_migrations WHERE version = '090_seat_holds.sql';
                """ + OldSeats);
        }

        await SqliteSchema.MigrateAsync(connectionString, ct);

        await using var after = new SqliteConnection(connectionString);
        await after.OpenAsync(ct);
        Assert.Equal(Moved, await SeatsAsync(after));
    }

    [Fact]
    public async Task An_older_PostgreSQL_database_moves_its_coded_holds_into_the_hold_columns()
    {
        var server = await SharedPostgres.OrSkipAsync();
        var connectionString = await server.CreateDatabaseAsync("holds" + Guid.NewGuid().ToString("N")[..12], TestContext.Current.CancellationToken);
        await using var dataSource = NpgsqlDataSource.Create(connectionString);
        await new PostgresSchema(dataSource).MigrateAsync(CancellationToken.None);
        await using (var connection = await dataSource.OpenConnectionAsync())
        {
            await ExecuteAsync(connection, """
                ALTER TABLE hot_seats DROP CONSTRAINT ck_hot_seats_hold, DROP COLUMN offer_id, DROP COLUMN hold;
                DELETE FROM schema_migrations WHERE version = '120_seat_holds.sql';
                """ + OldSeats);
        }

        await new PostgresSchema(dataSource).MigrateAsync(CancellationToken.None);

        await using var after = await dataSource.OpenConnectionAsync();
        Assert.Equal(Moved, await SeatsAsync(after));
        // The invariant holds from here on: a held seat takes no booking's code.
        await Assert.ThrowsAsync<PostgresException>(() => ExecuteAsync(after, "UPDATE hot_seats SET code = 'BOOKED-002' WHERE seat_no = 2"));
    }

    private static async Task ExecuteAsync(DbConnection connection, string sql)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        await command.ExecuteNonQueryAsync();
    }

    private static async Task<List<(int, string?, long, long?)>> SeatsAsync(DbConnection connection)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = Seats;
        await using var row = await command.ExecuteReaderAsync();
        var seats = new List<(int, string?, long, long?)>();
        while (await row.ReadAsync())
        {
            seats.Add((Convert.ToInt32(row.GetValue(0), System.Globalization.CultureInfo.InvariantCulture), row.IsDBNull(1) ? null : row.GetString(1),
                Convert.ToInt64(row.GetValue(2), System.Globalization.CultureInfo.InvariantCulture),
                row.IsDBNull(3) ? null : Convert.ToInt64(row.GetValue(3), System.Globalization.CultureInfo.InvariantCulture)));
        }
        return seats;
    }
}
