using Microsoft.Extensions.DependencyInjection;
using Npgsql;
using NpgsqlTypes;
using Slots.Reservations;
using Slots.Storage.Ef.WaitingList;
using Slots.WaitingList;

namespace Slots.Storage.Postgres.WaitingList;

/// <summary>The waiting list on PostgreSQL: the shared EF side, the claim in one call of waitlist_claim.</summary>
internal sealed class PostgresWaitingListStore(IServiceScopeFactory scopes, NpgsqlDataSource dataSource) : EfWaitingListStore(scopes)
{
    public override async Task<ClaimAnswer> ClaimAsync(string token, string newCode, DateTimeOffset now, CancellationToken ct)
    {
        await using var call = dataSource.CreateCommand("SELECT o_status, o_code, o_place, o_day, o_minute, o_minutes, o_service FROM waitlist_claim($1, $2, $3)");
        call.Parameters.Add(new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Text, Value = token });
        call.Parameters.Add(new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Text, Value = newCode });
        call.Parameters.Add(new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Bigint, Value = now.ToUnixTimeSeconds() });
        await using var row = await call.ExecuteReaderAsync(ct);
        await row.ReadAsync(ct);
        var status = (ClaimStatus)row.GetInt32(0);
        return status != ClaimStatus.Claimed
            ? new ClaimAnswer(status)
            : new ClaimAnswer(status, row.GetString(1), new SlotKey(row.GetInt32(2), row.GetFieldValue<DateOnly>(3), row.GetInt32(4), row.GetInt32(6)),
                row.IsDBNull(5) ? 0 : row.GetInt32(5));
    }
}
