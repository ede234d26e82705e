using Microsoft.EntityFrameworkCore;
using Slots.Storage.Ef;

namespace Slots.Storage.Postgres;

/// <summary>PostgreSQL's side of the shared EF cold side: row locks, generate_series seats, the plpgsql flush.</summary>
public sealed class PostgresDialect : EfDialect
{
    public override bool LocksRows => true;

    public override string LoadSeatsSql => """
        INSERT INTO hot_seats (place_id, day, start_minute, seat_no, minutes, starts_at, code)
        SELECT s.place_id, s.day, s.start_minute, n.seat_no, s.minutes, s.starts_at, NULL
        FROM slots s CROSS JOIN LATERAL generate_series(1, s.capacity) AS n(seat_no)
        WHERE s.place_id = {0} AND s.day >= {1} AND s.day <= {2} AND s.closed_by IS NULL
        ON CONFLICT DO NOTHING
        """;

    public override bool IsUniqueViolation(Exception exception) =>
        exception is Npgsql.PostgresException { SqlState: Npgsql.PostgresErrorCodes.UniqueViolation };

    public override void UseProvider(DbContextOptionsBuilder options, string connectionString) => options.UseNpgsql(connectionString);

    public override async Task<int> FlushChangesAsync(SlotsDbContext db, int batchSize, CancellationToken ct) =>
        (await db.Database.SqlQueryRaw<int>("SELECT slots_flush_changes({0}) AS \"Value\"", batchSize).ToListAsync(ct)).Single();
}
