using Microsoft.Data.Sqlite;
using Slots.Testing.Storage;
using Slots.Testing.Web;
using static Slots.Testing.Storage.ServiceUpgrade;
using SqliteSchema = Slots.Storage.Sqlite.SqliteSchema;

namespace Slots.Storage.Sqlite.Tests;

/// <summary>
/// A SQLite database that held places, slots and bookings before services existed, migrated by the real
/// migrator: every place offers the default service with the seats of its latest slot, and every row
/// already there is the default service's (<see cref="ServiceUpgrade"/>).
/// </summary>
public sealed class ServiceUpgradeTests(Slots.Testing.Web.SqliteBackend sqlite) : IClassFixture<Slots.Testing.Web.SqliteBackend>
{
    [Fact]
    public async Task Sqlite_keeps_old_rows_as_the_default_service_and_gives_every_place_its_offer()
    {
        var ct = TestContext.Current.CancellationToken;
        var connectionString = (await sqlite.CreateDatabaseAsync("old" + Guid.NewGuid().ToString("N")[..8], ct))["ConnectionStrings:Slots"]!;
        await using (var connection = new SqliteConnection(connectionString))
        {
            await connection.OpenAsync(ct);
            await ApplyOldScriptsAsync(connection, typeof(SqliteSchema).Assembly, "sqlite/", "110_services.sql", ct);
        }

        await SqliteSchema.MigrateAsync(connectionString, ct);

        await AssertUpgradedAsync(new Rows(new Dictionary<string, string?> { ["Slots:Storage:Provider"] = "Sqlite", ["ConnectionStrings:Slots"] = connectionString }));
    }
}
