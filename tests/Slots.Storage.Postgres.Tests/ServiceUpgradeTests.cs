using Npgsql;
using Slots.Testing.Storage;
using Slots.Testing.Web;
using static Slots.Testing.Storage.ServiceUpgrade;
using PostgresSchema = Slots.Storage.Postgres.PostgresSchema;

namespace Slots.Storage.Postgres.Tests;

/// <summary>
/// A PostgreSQL database that held places, slots and bookings before services existed, migrated by the real
/// migrator: every place offers the default service with the seats of its latest slot, and every row
/// already there is the default service's (<see cref="ServiceUpgrade"/>).
/// </summary>
public sealed class ServiceUpgradeTests(PostgresBackend postgres) : IClassFixture<PostgresBackend>
{
    [Fact]
    public async Task Postgres_keeps_old_rows_as_the_default_service_and_gives_every_place_its_offer()
    {
        var ct = TestContext.Current.CancellationToken;
        var settings = await postgres.CreateDatabaseAsync("old" + Guid.NewGuid().ToString("N")[..8], ct);
        var connectionString = settings["ConnectionStrings:Slots"]!;
        await using (var connection = new NpgsqlConnection(connectionString))
        {
            await connection.OpenAsync(ct);
            await ApplyOldScriptsAsync(connection, typeof(PostgresSchema).Assembly, "postgres/", "140_services.sql", ct);
        }

        await using (var source = NpgsqlDataSource.Create(connectionString))
        {
            await new PostgresSchema(source).MigrateAsync(ct);
        }

        await AssertUpgradedAsync(new Rows(settings));
    }
}
