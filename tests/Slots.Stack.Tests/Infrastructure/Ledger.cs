using Npgsql;

namespace Slots.Stack.Tests.Infrastructure;

/// <summary>What the database holds for a place, read directly: the ground truth the HTTP answers are checked against.</summary>
public static class Ledger
{
    /// <summary>Reservation code → seat (start minute, seat number), from the hot reservations of the place.</summary>
    public static async Task<Dictionary<string, (int Minute, int Seat)>> ReservationsAsync(string connectionString, int placeId)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand("SELECT code, start_minute, seat_no FROM hot_reservations WHERE place_id = $1", connection);
        command.Parameters.AddWithValue(placeId);
        var result = new Dictionary<string, (int, int)>();
        await using var reader = await command.ExecuteReaderAsync();
        while (await reader.ReadAsync())
        {
            result.Add(reader.GetString(0), (reader.GetInt32(1), reader.GetInt32(2)));
        }
        return result;
    }

    /// <summary>Seats of the place holding a code, and how many distinct codes the reservations give each seat (must be one).</summary>
    public static async Task<(long TakenSeats, long SeatsWithTwoCodes)> SeatsAsync(string connectionString, int placeId)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand("""
            SELECT (SELECT count(*) FROM hot_seats WHERE place_id = $1 AND code IS NOT NULL),
                   (SELECT count(*) FROM (SELECT 1 FROM hot_reservations WHERE place_id = $1
                                          GROUP BY day, start_minute, seat_no HAVING count(DISTINCT code) > 1) shared)
            """, connection);
        command.Parameters.AddWithValue(placeId);
        await using var reader = await command.ExecuteReaderAsync();
        await reader.ReadAsync();
        return (reader.GetInt64(0), reader.GetInt64(1));
    }
}
