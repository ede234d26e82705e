using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Reservations;

namespace Slots.Storage.SqlServer;

/// <summary>
/// Wrong proofs per booking code on SQL Server (dbo.wrong_proofs, sql/090), as the EF store keeps
/// them on SQLite and PostgreSQL: one inserted row per wrong proof. Not executed on the build
/// machines (no SQL Server there): the statements are parse-checked by tests/Slots.SqlServer.Tests.
/// </summary>
public sealed class SqlServerWrongProofStore(SqlServerConnectionString connectionString) : IWrongProofStore
{
    /// <summary>The statements this store sends, public so the tests parse each one.</summary>
    public static class Sql
    {
        public const string Newest = """
            SELECT TOP (@limit) at FROM dbo.wrong_proofs
            WHERE code = @code AND at > @since
            ORDER BY at DESC;
            """;

        public const string Record = """
            INSERT dbo.wrong_proofs (code, at) VALUES (@code, @at);
            DELETE FROM dbo.wrong_proofs WHERE at < @forget;
            """;
    }

    public async Task<IReadOnlyList<DateTimeOffset>> NewestAsync(string code, DateTimeOffset since, int limit, CancellationToken ct)
    {
        await using var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        await using var newest = new SqlCommand(Sql.Newest, connection);
        newest.Parameters.Add("@limit", SqlDbType.Int).Value = limit;
        newest.Parameters.Add("@code", SqlDbType.VarChar, 16).Value = code;
        newest.Parameters.Add("@since", SqlDbType.BigInt).Value = since.ToUnixTimeSeconds();
        var times = new List<DateTimeOffset>(limit);
        await using var reader = await newest.ExecuteReaderAsync(ct);
        while (await reader.ReadAsync(ct))
        {
            times.Add(DateTimeOffset.FromUnixTimeSeconds(reader.GetInt64(0)));
        }
        return times;
    }

    public async Task RecordAsync(string code, DateTimeOffset at, DateTimeOffset forgetBefore, CancellationToken ct)
    {
        await using var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        await using var record = new SqlCommand(Sql.Record, connection);
        record.Parameters.Add("@code", SqlDbType.VarChar, 16).Value = code;
        record.Parameters.Add("@at", SqlDbType.BigInt).Value = at.ToUnixTimeSeconds();
        record.Parameters.Add("@forget", SqlDbType.BigInt).Value = forgetBefore.ToUnixTimeSeconds();
        await record.ExecuteNonQueryAsync(ct);
    }
}
