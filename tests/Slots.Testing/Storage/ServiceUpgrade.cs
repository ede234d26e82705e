using System.Data.Common;
using System.Globalization;
using System.Reflection;
using Slots.Testing.Web;

namespace Slots.Testing.Storage;

/// <summary>
/// A database that held places, slots and bookings before services existed (issue 41): its scripts up to
/// the services migration and rows as the paths before services wrote them, and what the real migrator
/// must leave: every place offering the default service with the seats of its latest slot (none known for
/// a place without slots), and every row already there the default service's. The same rows and the same
/// expectation for SQLite and PostgreSQL, whose projects each migrate their own.
/// </summary>
public static class ServiceUpgrade
{
    private static readonly string[] ServiceTables =
        ["slots", "hot_seats", "reservations", "hot_reservations", "changes", "active_persons", "waitlist", "waitlist_offers"];

    // Rows as the paths before services wrote them: no service anywhere.
    private const string OldRows = """
        INSERT INTO places (id, name, address, region, time_zone, active, hot_until)
        VALUES (7, 'Old site', 'Hlavná 1', 'Bratislavský kraj', 'Europe/Bratislava', TRUE, '2030-01-31'),
               (8, 'Empty site', 'Hlavná 2', 'Bratislavský kraj', 'Europe/Bratislava', TRUE, '2030-01-31');
        INSERT INTO slots (place_id, day, start_minute, minutes, capacity, starts_at)
        VALUES (7, '2030-01-02', 480, 15, 3, 1893567600), (7, '2030-01-03', 480, 15, 4, 1893654000);
        INSERT INTO hot_seats (place_id, day, start_minute, seat_no, minutes, starts_at, code)
        VALUES (7, '2030-01-02', 480, 1, 15, 1893567600, 'OLD1');
        INSERT INTO hot_reservations (code, place_id, day, start_minute, seat_no, minutes, starts_at, person_hash, phone, name, language, created_at)
        VALUES ('OLD1', 7, '2030-01-02', 480, 1, 15, 1893567600, 'h1', '+421900000001', 'Osoba', 'sk', 1);
        INSERT INTO reservations (code, place_id, day, start_minute, seat_no, person_hash, phone, name, language, created_at, updated_at)
        VALUES ('OLD2', 7, '2030-01-03', 480, 1, 'h2', '+421900000002', 'Osoba', 'sk', 1, 1);
        INSERT INTO changes (kind, code, place_id, day, start_minute, seat_no, person_hash, phone, name, language, created_at, at)
        VALUES (1, 'OLD1', 7, '2030-01-02', 480, 1, 'h1', '+421900000001', 'Osoba', 'sk', 1, 1);
        INSERT INTO active_persons (person_hash, code, ends_at) VALUES ('h1', 'OLD1', 1893568500), ('h2', 'OLD2', 1893654900);
        INSERT INTO waitlist (place_id, from_day, to_day, person_hash, phone, name, language, token, joined_at, state)
        VALUES (7, '2030-01-02', '2030-01-03', 'h3', '+421900000003', 'Osoba', 'sk', 't3', 1, 1);
        INSERT INTO waitlist_offers (entry_id, place_id, day, start_minute, seat_no, offered_at, expires_at, state)
        VALUES (1, 7, '2030-01-02', 480, 2, 1, 2, 1);
        """;

    /// <summary>The numbered scripts before <paramref name="first"/>, recorded as the migrator records them, then the old rows.</summary>
    public static async Task ApplyOldScriptsAsync(DbConnection connection, Assembly assembly, string prefix, string first, CancellationToken ct)
    {
        await ExecuteAsync(connection, "CREATE TABLE schema_migrations (version text NOT NULL PRIMARY KEY, applied_at bigint NOT NULL)", ct);
        var scripts = assembly.GetManifestResourceNames()
            .Where(n => n.StartsWith(prefix, StringComparison.Ordinal) && string.CompareOrdinal(n[prefix.Length..], first) < 0)
            .Order(StringComparer.Ordinal)
            .ToList();
        Assert.NotEmpty(scripts);
        foreach (var script in scripts)
        {
            await using var stream = assembly.GetManifestResourceStream(script)!;
            using var reader = new StreamReader(stream);
            await ExecuteAsync(connection, await reader.ReadToEndAsync(ct), ct);
            await ExecuteAsync(connection, $"INSERT INTO schema_migrations (version, applied_at) VALUES ('{script[prefix.Length..]}', 0)", ct);
        }
        await ExecuteAsync(connection, OldRows, ct);
    }

    public static async Task AssertUpgradedAsync(Rows rows)
    {
        var offers = await rows.QueryAsync(
            "SELECT place_id, service_id, seats FROM place_services ORDER BY place_id",
            r => (Place: Int(r, 0), Service: Int(r, 1), Seats: r.IsDBNull(2) ? (int?)null : Int(r, 2)));
        Assert.Equal([(7, 1, 4), (8, 1, (int?)null)], offers);
        Assert.Equal(["default"], await rows.QueryAsync("SELECT code FROM services", r => r.GetString(0)));
        foreach (var table in ServiceTables)
        {
            var services = await rows.QueryAsync($"SELECT service_id FROM {table}", r => Int(r, 0));
            Assert.True(services.Count > 0, $"{table} has no row");
            Assert.All(services, s => Assert.Equal(1, s));
        }
    }

    private static int Int(DbDataReader reader, int ordinal) => Convert.ToInt32(reader.GetValue(ordinal), CultureInfo.InvariantCulture);

    private static async Task ExecuteAsync(DbConnection connection, string sql, CancellationToken ct)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        await command.ExecuteNonQueryAsync(ct);
    }
}
