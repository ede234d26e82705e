using Npgsql;
using static Slots.Testing.Storage.SeatHoldRows;

namespace Slots.Storage.Postgres.Tests;

/// <summary>
/// An older PostgreSQL database, its holds written into the code column, migrates: the hold columns
/// appear, the old holds move into them, and a booking's code stays where it was. The older database
/// is made by migrating a new one and taking the change back (the columns dropped, the script's
/// record deleted), then migrating again.
/// </summary>
public sealed class SeatHoldMigrationTests
{
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
}
