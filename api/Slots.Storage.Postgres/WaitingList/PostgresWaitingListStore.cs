using Microsoft.Extensions.DependencyInjection;
using Npgsql;
using NpgsqlTypes;
using Slots.Reservations;
using Slots.Storage.Ef.WaitingList;
using Slots.WaitingList;

namespace Slots.Storage.Postgres.WaitingList;

/// <summary>The waiting list on PostgreSQL: the shared EF side, the claim (with a pair's second dose) in one call of waitlist_claim.</summary>
internal sealed class PostgresWaitingListStore(IServiceScopeFactory scopes, NpgsqlDataSource dataSource) : EfWaitingListStore(scopes)
{
    public override async Task<ClaimAnswer> ClaimAsync(ClaimCommand command, CancellationToken ct)
    {
        await using var call = dataSource.CreateCommand(
            "SELECT o_status, o_code, o_place, o_day, o_minute, o_minutes, o_service FROM waitlist_claim($1, $2, $3, $4, $5, $6, $7, $8, $9)");
        var (offered, second) = (command.Offered, command.Second);
        foreach (var (type, value) in new (NpgsqlDbType, object?)[]
        {
            (NpgsqlDbType.Text, command.Token), (NpgsqlDbType.Text, command.NewCode), (NpgsqlDbType.Bigint, command.Now.ToUnixTimeSeconds()),
            (NpgsqlDbType.Date, offered?.Day), (NpgsqlDbType.Integer, offered?.StartMinute),
            (NpgsqlDbType.Text, command.SecondCode), (NpgsqlDbType.Date, second?.From), (NpgsqlDbType.Date, second?.To), (NpgsqlDbType.Integer, second?.StartMinute),
        })
        {
            call.Parameters.Add(new NpgsqlParameter { NpgsqlDbType = type, Value = value ?? DBNull.Value });
        }
        await using var row = await call.ExecuteReaderAsync(ct);
        await row.ReadAsync(ct);
        var status = (ClaimStatus)row.GetInt32(0);
        return status != ClaimStatus.Claimed
            ? new ClaimAnswer(status)
            : new ClaimAnswer(status, row.GetString(1), new SlotKey(row.GetInt32(2), row.GetFieldValue<DateOnly>(3), row.GetInt32(4), row.GetInt32(6)),
                row.IsDBNull(5) ? 0 : row.GetInt32(5));
    }
}
