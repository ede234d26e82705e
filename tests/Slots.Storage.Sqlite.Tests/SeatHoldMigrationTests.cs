using Microsoft.Data.Sqlite;
using static Slots.Testing.Storage.SeatHoldRows;

namespace Slots.Storage.Sqlite.Tests;

/// <summary>
/// An older SQLite database, its holds written into the code column, migrates: the hold columns
/// appear, the old holds move into them, and a booking's code stays where it was. The older database
/// is made by migrating a new one and taking the change back (the columns dropped, the script's
/// record deleted), then migrating again.
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
}
