using System.Data.Common;
using System.Globalization;

namespace Slots.Testing.Storage;

/// <summary>
/// Seats as a database from before the hold columns (issue 38) kept them, holds written into the
/// code column ('~h' and the offer id, '~w'), and where its migration must move them: the same rows
/// and the same expectation for SQLite and PostgreSQL, whose projects each migrate their own.
/// </summary>
public static class SeatHoldRows
{
    public const string OldSeats = """
        INSERT INTO hot_seats (place_id, day, start_minute, seat_no, minutes, starts_at, code) VALUES
            (1, '2099-01-01', 480, 1, 10, 4070908800, 'BOOKED-001'),
            (1, '2099-01-01', 480, 2, 10, 4070908800, '~h42'),
            (1, '2099-01-01', 480, 3, 10, 4070908800, '~w'),
            (1, '2099-01-01', 480, 4, 10, 4070908800, NULL)
        """;

    private const string Seats = "SELECT seat_no, code, hold, offer_id FROM hot_seats ORDER BY seat_no";

    public static readonly (int, string?, long, long?)[] Moved =
        [(1, "BOOKED-001", 0, null), (2, null, 1, 42), (3, null, 1, null), (4, null, 0, null)];

    public static async Task ExecuteAsync(DbConnection connection, string sql)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        await command.ExecuteNonQueryAsync();
    }

    public static async Task<List<(int, string?, long, long?)>> SeatsAsync(DbConnection connection)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = Seats;
        await using var row = await command.ExecuteReaderAsync();
        var seats = new List<(int, string?, long, long?)>();
        while (await row.ReadAsync())
        {
            seats.Add((Convert.ToInt32(row.GetValue(0), CultureInfo.InvariantCulture), row.IsDBNull(1) ? null : row.GetString(1),
                Convert.ToInt64(row.GetValue(2), CultureInfo.InvariantCulture),
                row.IsDBNull(3) ? null : Convert.ToInt64(row.GetValue(3), CultureInfo.InvariantCulture)));
        }
        return seats;
    }
}
