using Microsoft.Data.Sqlite;

namespace Slots.Storage.Sqlite;

internal static class SqliteConnections
{
    /// <summary>
    /// Per-connection settings. synchronous=FULL because a confirmed booking must survive a power
    /// cut; the writer's group commit pays the fsync once per batch, not per reservation.
    /// </summary>
    public static async Task ConfigureAsync(SqliteConnection connection, CancellationToken ct)
    {
        await using var pragma = connection.CreateCommand();
        pragma.CommandText = "PRAGMA busy_timeout = 10000; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;";
        await pragma.ExecuteNonQueryAsync(ct);
    }
}
