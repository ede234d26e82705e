using System.Data.Common;
namespace Slots.Admission;

/// <summary>
/// Reads the waiting-room rows that every backend's adapter shares column for column (the same
/// SELECT lists, through ADO.NET's common reader), so the three adapters map an opening one way.
/// </summary>
public static class AdmissionRows
{
    /// <summary>The opening columns, in <see cref="Opening(DbDataReader)"/>'s order.</summary>
    public const string OpeningColumns = """
        id, scope, opens_at, admit_per_second, admission_seconds, abandon_allowance, state, created_at, closed_at,
        joined, pre_queue, shuffle_key, served, seats_left, advanced_at, credit_at_ms, version
        """;

    public static Opening Opening(DbDataReader row) => new(
        row.GetInt64(0),
        OpeningScope.Parse(row.GetString(1)),
        DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(2)),
        row.IsDBNull(3) ? null : row.GetDouble(3),
        TimeSpan.FromSeconds(row.GetInt64(4)),
        (int)row.GetInt64(5),
        (OpeningState)row.GetInt64(6),
        DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(7)),
        row.IsDBNull(8) ? null : DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(8)),
        row.GetInt64(9),
        row.IsDBNull(10) ? null : row.GetInt64(10),
        row.IsDBNull(11) ? null : row.GetFieldValue<byte[]>(11),
        row.GetInt64(12),
        row.GetInt64(13),
        row.IsDBNull(14) ? null : DateTimeOffset.FromUnixTimeMilliseconds(row.GetInt64(14)),
        row.GetInt64(15),
        row.GetInt64(16));

    /// <summary>Columns: opening_id, first_position, last_position, admitted_at (ms).</summary>
    public static AdmissionWave Wave(DbDataReader row) => new(
        row.GetInt64(0), row.GetInt64(1), row.GetInt64(2), DateTimeOffset.FromUnixTimeMilliseconds(row.GetInt64(3)));
}
