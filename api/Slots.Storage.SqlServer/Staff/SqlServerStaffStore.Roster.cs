using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Reservations;
using Slots.Staff;

namespace Slots.Storage.SqlServer;

/// <summary>The reads: a place's day and a booking at the door, each one batch (<see cref="Sql.Day"/>, <see cref="Sql.Find"/>).</summary>
public sealed partial class SqlServerStaffStore
{
    public async Task<IReadOnlyList<RosterRow>> DayAsync(int placeId, DateOnly day, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var batch = new SqlCommand(Sql.Day, connection);
        batch.Parameters.Add("@place_id", SqlDbType.Int).Value = placeId;
        batch.Parameters.Add("@day", SqlDbType.Date).Value = day.ToDateTime(TimeOnly.MinValue);
        // By code: a cancel read after the same booking's active row replaces it (see Sql.Day).
        var rows = new Dictionary<string, RosterRow>(StringComparer.Ordinal);
        await using var row = await batch.ExecuteReaderAsync(ct);
        while (await row.ReadAsync(ct))
        {
            var door = row.IsDBNull(7)
                ? (State: RosterState.Booked, At: (DateTimeOffset?)null, By: (string?)null)
                : ((RosterState)row.GetInt32(7), DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(8)), row.GetString(9));
            rows[row.GetString(0)] = Roster(row, door.State, door.At, door.By);
        }
        for (var cancels = 0; cancels < 2; cancels++)
        {
            await row.NextResultAsync(ct);
            while (await row.ReadAsync(ct))
            {
                // A site's block cancel left its door record (state 5): when, and who.
                rows[row.GetString(0)] = row.IsDBNull(8)
                    ? Roster(row, RosterState.Cancelled, DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(7)), null)
                    : Roster(row, RosterState.CancelledBySite, DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(8)), row.GetString(9));
            }
        }
        return [.. rows.Values];
    }

    public async Task<DoorBooking?> FindAsync(string code, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var batch = new SqlCommand(Sql.Find, connection);
        batch.Parameters.Add("@code", SqlDbType.VarChar, SqlServerCommands.CodeSize).Value = code;
        await using var row = await batch.ExecuteReaderAsync(ct);
        (RosterState State, DateTimeOffset At, string By)? mark = await row.ReadAsync(ct)
            ? ((RosterState)row.GetInt32(0), DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(1)), row.GetString(2))
            : null;
        await row.NextResultAsync(ct);
        if (await row.ReadAsync(ct))
        {
            return Door(SqlServerCommands.ReadDetails(row, code), mark);
        }
        await row.NextResultAsync(ct);
        if (await row.ReadAsync(ct))
        {
            return new DoorBooking(SqlServerCommands.ReadDetails(row, code), RosterState.Cancelled, DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(10)), null);
        }
        await row.NextResultAsync(ct);
        if (await row.ReadAsync(ct))
        {
            var details = SqlServerCommands.ReadDetails(row, code);
            return row.IsDBNull(10)
                ? Door(details, mark)
                : new DoorBooking(details, RosterState.Cancelled, DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(10)), null);
        }
        return null;
    }

    private static DoorBooking Door(ReservationDetails details, (RosterState State, DateTimeOffset At, string By)? mark) =>
        mark is { } m ? new DoorBooking(details, m.State, m.At, m.By) : new DoorBooking(details, RosterState.Booked, null, null);

    /// <summary>A row of <see cref="Sql.Day"/>: code, start_minute, minutes, seat_no, name, phone, language first.</summary>
    private static RosterRow Roster(SqlDataReader row, RosterState state, DateTimeOffset? at, string? by) =>
        new(row.GetString(0), row.GetInt32(1), row.GetInt32(2), row.GetInt32(3), row.GetString(4), row.GetString(5), row.GetString(6), state, at, by);
}
