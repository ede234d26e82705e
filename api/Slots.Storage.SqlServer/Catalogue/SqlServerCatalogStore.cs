using Microsoft.Data.SqlClient;
using Slots.Catalogue;
using Slots.Storage.Ef;

namespace Slots.Storage.SqlServer;

/// <summary>
/// The disk catalogue on SQL Server: the shared EF Core store on SQL Server's provider for the
/// places, the regions and the day totals (the LINQ SQLite and PostgreSQL run and test), and
/// dbo.add_slots (sql/026) for slot generation, which under the place's row lock adds what the
/// catalogue lacks and gives days inside the window their hot seats in the same call (see
/// docs/sqlserver.md). Not executed here: no SQL Server on the build machines; the proc is
/// parse-checked, and what EF Core sends checked against sql/, by tests/Slots.SqlServer.Tests.
/// </summary>
public sealed class SqlServerCatalogStore(SlotsDbContext db, SqlServerConnectionString connectionString) : EfCatalogStore(db, loader: null)
{
    public override async Task<SlotsAdded> AddSlotsAsync(int placeId, IReadOnlyList<SlotRow> slots, bool dryRun, CancellationToken ct)
    {
        if (slots.Count == 0)
        {
            return default;
        }
        await using var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        await using var command = SqlServerCommands.AddSlots(placeId, slots, dryRun).On(connection);
        await using var reader = await command.ExecuteReaderAsync(ct);
        await reader.ReadAsync(ct);
        return new SlotsAdded(reader.GetInt32(0), reader.GetInt32(1), reader.GetInt32(2));
    }
}
