using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Catalogue;
using Slots.Places;
using Slots.Staff;

namespace Slots.Storage.SqlServer;

/// <summary>
/// The disk catalogue on SQL Server through SqlClient (slot generation gives days inside the window
/// their hot seats in the same call, see docs/sqlserver.md): short parameterised statements, and dbo.add_slots
/// (sql/026) for slot generation. Not executed here: no SQL Server on the build machines; the
/// statements and the proc are parse-checked by tests/Slots.SqlServer.Tests.
/// </summary>
public sealed class SqlServerCatalogStore(SqlServerConnectionString connectionString) : ICatalogStore
{
    // Column sizes, as declared in sql/002.
    private const int NameSize = 200, AddressSize = 400, RegionSize = 100, ZoneSize = 64;

    /// <summary>The statements this store sends, public so the tests parse each one.</summary>
    public static class Sql
    {
        private const string Listed = """
            FROM dbo.places
            WHERE active = 1
              AND (@region IS NULL OR region = @region)
              AND (@name IS NULL OR LOWER(name) LIKE @name ESCAPE '\')
            """;

        private const string Columns = "SELECT id, name, address, region, time_zone, active, hot_until";

        public const string ListPlaces =
            "SELECT COUNT(*) " + Listed + ";\n" +
            Columns + "\n" + Listed + "\nORDER BY region, name, id OFFSET @skip ROWS FETCH NEXT @take ROWS ONLY;";

        public const string FindPlace = Columns + " FROM dbo.places WHERE id = @id;";

        public const string AllPlaces = Columns + " FROM dbo.places;";

        public const string Regions = "SELECT DISTINCT region FROM dbo.places WHERE active = 1 ORDER BY region;";

        public const string AnyPlace = "SELECT CASE WHEN EXISTS (SELECT 1 FROM dbo.places) THEN 1 ELSE 0 END;";

        public const string AddPlace = """
            INSERT dbo.places (name, address, region, time_zone, active, hot_until)
            OUTPUT INSERTED.id
            VALUES (@name, @address, @region, @time_zone, @active, @hot_until);
            """;

        /// <summary>
        /// Catalogue totals, hot reservations, cold-path reservations (days from their place's
        /// horizon on; before it they are counted hot), and the door's check-ins (2) and no-shows (3),
        /// at one place or (@place NULL) all. Memory-optimized tables are read WITH (SNAPSHOT);
        /// attendance's (place_id, day) index serves one place's days.
        /// </summary>
        public const string DayTotals = """
            SELECT day, COUNT(*) AS slots, SUM(CAST(capacity AS bigint)) AS seats
            FROM dbo.slots WHERE day BETWEEN @first AND @last AND (@place IS NULL OR place_id = @place) GROUP BY day;
            SELECT day, COUNT_BIG(*) FROM dbo.hot_reservations WITH (SNAPSHOT)
            WHERE day BETWEEN @first AND @last AND (@place IS NULL OR place_id = @place) GROUP BY day;
            SELECT r.day, COUNT_BIG(*)
            FROM dbo.reservations r JOIN dbo.places p ON p.id = r.place_id
            WHERE r.day BETWEEN @first AND @last AND r.cancelled_at IS NULL AND r.day >= p.hot_until
              AND (@place IS NULL OR r.place_id = @place)
            GROUP BY r.day;
            SELECT day, state, COUNT_BIG(*) FROM dbo.attendance WITH (SNAPSHOT)
            WHERE day BETWEEN @first AND @last AND (@place IS NULL OR place_id = @place) AND state IN (2, 3)
            GROUP BY day, state;
            """;
    }

    public async Task<PlacePage> ListPlacesAsync(PlaceQuery query, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = Text(connection, Sql.ListPlaces);
        command.Parameters.Add("@region", SqlDbType.NVarChar, RegionSize).Value = string.IsNullOrWhiteSpace(query.Region) ? DBNull.Value : query.Region;
        command.Parameters.Add("@name", SqlDbType.NVarChar, NameSize + 2).Value = (object?)query.NamePattern() ?? DBNull.Value;
        command.Parameters.Add("@skip", SqlDbType.Int).Value = (query.Page - 1) * query.PageSize;
        command.Parameters.Add("@take", SqlDbType.Int).Value = query.PageSize;
        await using var reader = await command.ExecuteReaderAsync(ct);
        await reader.ReadAsync(ct);
        var total = reader.GetInt32(0);
        await reader.NextResultAsync(ct);
        return new PlacePage(await PlacesAsync(reader, ct), total);
    }

    public async Task<Place?> FindPlaceAsync(int id, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = Text(connection, Sql.FindPlace);
        command.Parameters.Add("@id", SqlDbType.Int).Value = id;
        await using var reader = await command.ExecuteReaderAsync(ct);
        return (await PlacesAsync(reader, ct)).SingleOrDefault();
    }

    public async Task<IReadOnlyList<Place>> AllPlacesAsync(CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = Text(connection, Sql.AllPlaces);
        await using var reader = await command.ExecuteReaderAsync(ct);
        return await PlacesAsync(reader, ct);
    }

    public async Task<IReadOnlyList<string>> RegionsAsync(CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = Text(connection, Sql.Regions);
        await using var reader = await command.ExecuteReaderAsync(ct);
        var regions = new List<string>();
        while (await reader.ReadAsync(ct))
        {
            regions.Add(reader.GetString(0));
        }
        return regions;
    }

    public async Task<bool> AnyPlaceAsync(CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = Text(connection, Sql.AnyPlace);
        return (int)(await command.ExecuteScalarAsync(ct))! == 1;
    }

    public async Task<Place> AddPlaceAsync(Place place, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = Text(connection, Sql.AddPlace);
        command.Parameters.Add("@name", SqlDbType.NVarChar, NameSize).Value = place.Name;
        command.Parameters.Add("@address", SqlDbType.NVarChar, AddressSize).Value = place.Address;
        command.Parameters.Add("@region", SqlDbType.NVarChar, RegionSize).Value = place.Region;
        command.Parameters.Add("@time_zone", SqlDbType.VarChar, ZoneSize).Value = place.TimeZone;
        command.Parameters.Add("@active", SqlDbType.Bit).Value = place.Active;
        command.Parameters.Add("@hot_until", SqlDbType.Date).Value = place.HotUntil.ToDateTime(TimeOnly.MinValue);
        place.Id = (int)(await command.ExecuteScalarAsync(ct))!;
        return place;
    }

    public async Task<SlotsAdded> AddSlotsAsync(int placeId, IReadOnlyList<SlotRow> slots, bool dryRun, CancellationToken ct)
    {
        if (slots.Count == 0)
        {
            return default;
        }
        await using var connection = await OpenAsync(ct);
        await using var command = SqlServerCommands.AddSlots(placeId, slots, dryRun).On(connection);
        await using var reader = await command.ExecuteReaderAsync(ct);
        await reader.ReadAsync(ct);
        return new SlotsAdded(reader.GetInt32(0), reader.GetInt32(1), reader.GetInt32(2));
    }

    public async Task<IReadOnlyList<DayStats>> DayTotalsAsync(DateOnly first, DateOnly last, int? placeId, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = Text(connection, Sql.DayTotals);
        command.Parameters.Add("@first", SqlDbType.Date).Value = first.ToDateTime(TimeOnly.MinValue);
        command.Parameters.Add("@last", SqlDbType.Date).Value = last.ToDateTime(TimeOnly.MinValue);
        command.Parameters.Add("@place", SqlDbType.Int).Value = placeId is { } id ? id : DBNull.Value;
        await using var reader = await command.ExecuteReaderAsync(ct);
        var catalogue = new List<(DateOnly Day, int Slots, long Seats)>();
        while (await reader.ReadAsync(ct))
        {
            catalogue.Add((DateOnly.FromDateTime(reader.GetDateTime(0)), reader.GetInt32(1), reader.GetInt64(2)));
        }
        var taken = new Dictionary<DateOnly, long>();
        for (var set = 0; set < 2; set++)
        {
            await reader.NextResultAsync(ct);
            while (await reader.ReadAsync(ct))
            {
                var day = DateOnly.FromDateTime(reader.GetDateTime(0));
                taken[day] = taken.GetValueOrDefault(day) + reader.GetInt64(1);
            }
        }
        var door = new Dictionary<(DateOnly, RosterState), long>();
        await reader.NextResultAsync(ct);
        while (await reader.ReadAsync(ct))
        {
            door[(DateOnly.FromDateTime(reader.GetDateTime(0)), (RosterState)reader.GetInt32(1))] = reader.GetInt64(2);
        }
        return catalogue
            .OrderBy(c => c.Day)
            .Select(c => DayStats.Of(c.Day, c.Slots, c.Seats, taken.GetValueOrDefault(c.Day),
                door.GetValueOrDefault((c.Day, RosterState.CheckedIn)), door.GetValueOrDefault((c.Day, RosterState.NoShow))))
            .ToList();
    }

    private static async Task<List<Place>> PlacesAsync(SqlDataReader reader, CancellationToken ct)
    {
        var places = new List<Place>();
        while (await reader.ReadAsync(ct))
        {
            places.Add(new Place
            {
                Id = reader.GetInt32(0),
                Name = reader.GetString(1),
                Address = reader.GetString(2),
                Region = reader.GetString(3),
                TimeZone = reader.GetString(4),
                Active = reader.GetBoolean(5),
                HotUntil = DateOnly.FromDateTime(reader.GetDateTime(6)),
            });
        }
        return places;
    }

    private static SqlCommand Text(SqlConnection connection, string sql) => new(sql, connection);

    private async Task<SqlConnection> OpenAsync(CancellationToken ct)
    {
        var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        return connection;
    }
}
