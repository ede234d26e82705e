using System.Data;
using Microsoft.Data.SqlClient.Server;
using Slots.Reservations;

namespace Slots.Storage.SqlServer;

/// <summary>Streams commands as rows of the memory-optimized table type dbo.reserve_request (sql/011).</summary>
internal static class ReserveRequestRows
{
    private static readonly SqlMetaData[] Columns =
    [
        new("request_no", SqlDbType.Int),
        new("place_id", SqlDbType.Int),
        new("day", SqlDbType.Date),
        new("start_minute", SqlDbType.Int),
        new("person_hash", SqlDbType.VarChar, 64),
        new("phone", SqlDbType.VarChar, 16),
        new("name", SqlDbType.NVarChar, 100),
        new("language", SqlDbType.VarChar, 8),
        new("new_code", SqlDbType.VarChar, 16),
        new("seat_hint", SqlDbType.Int),
        new("idempotency_key", SqlDbType.VarChar, 100),
        new("fingerprint", SqlDbType.VarChar, 64),
    ];

    public static IEnumerable<SqlDataRecord> From(IReadOnlyList<ReserveCommand> commands)
    {
        // One record reused for every row: SqlClient copies the values as it streams.
        var record = new SqlDataRecord(Columns);
        for (var i = 0; i < commands.Count; i++)
        {
            var c = commands[i];
            record.SetInt32(0, i);
            record.SetInt32(1, c.Slot.PlaceId);
            record.SetDateTime(2, c.Slot.Day.ToDateTime(TimeOnly.MinValue));
            record.SetInt32(3, c.Slot.StartMinute);
            record.SetString(4, c.PersonHash);
            record.SetString(5, c.Phone);
            record.SetString(6, c.Name);
            record.SetString(7, c.Language);
            record.SetString(8, c.NewCode);
            record.SetInt32(9, SqlServerOutcomes.SeatHint(c.NewCode));
            record.SetString(10, c.IdempotencyKey);
            record.SetString(11, c.Fingerprint);
            yield return record;
        }
    }
}
