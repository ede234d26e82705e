using Microsoft.Extensions.DependencyInjection;
using Npgsql;
using NpgsqlTypes;
using Slots.Staff;
using Slots.Storage.Ef.Staff;

namespace Slots.Storage.Postgres.Staff;

/// <summary>The staff side on PostgreSQL: reads through EF Core, the check-in in one call of staff_check_in.</summary>
internal sealed class PostgresStaffStore(IServiceScopeFactory scopes, NpgsqlDataSource dataSource) : EfStaffStore(scopes)
{
    public override async Task<CheckInAnswer> CheckInAsync(CheckInCommand command, CancellationToken ct)
    {
        await using var call = dataSource.CreateCommand("SELECT o_status, o_at, o_by FROM staff_check_in($1, $2, $3, $4, $5)");
        call.Parameters.Add(new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Text, Value = command.Code });
        call.Parameters.Add(new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Integer, Value = command.PlaceId });
        call.Parameters.Add(new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Text, Value = command.By });
        call.Parameters.Add(new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Bigint, Value = command.Now.ToUnixTimeSeconds() });
        call.Parameters.Add(new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Text, Value = command.Action });
        await using var row = await call.ExecuteReaderAsync(ct);
        await row.ReadAsync(ct);
        return row.GetInt32(0) switch
        {
            1 => new CheckInAnswer(CheckInStatus.CheckedIn, command.Now, command.By),
            2 => new CheckInAnswer(CheckInStatus.AlreadyCheckedIn, DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(1)), row.GetString(2)),
            _ => new CheckInAnswer(CheckInStatus.Cancelled),
        };
    }
}
