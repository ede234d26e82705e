using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Storage;

namespace Slots.Storage.Ef;

/// <summary>
/// What an EF Core backend says in its own SQL: the provider, whether row locks are taken, the
/// seat generator, and how hot changes are flushed. Each backend that uses the shared EF cold
/// side brings one (SqliteDialect, PostgresDialect).
/// </summary>
public abstract class EfDialect
{
    /// <summary>
    /// True where concurrent writers must lock the rows they read before writing (PostgreSQL's
    /// FOR UPDATE / FOR SHARE). False where the transaction already excludes every other writer
    /// (SQLite's BEGIN IMMEDIATE).
    /// </summary>
    public abstract bool LocksRows { get; }

    /// <summary>INSERT of the hot seats of every catalogue slot of place {0} in days [{1}, {2}], each with its slot's service; existing seats kept.</summary>
    public abstract string LoadSeatsSql { get; }

    /// <summary>Points an EF Core context at this backend's database.</summary>
    public abstract void UseProvider(DbContextOptionsBuilder options, string connectionString);

    /// <summary>
    /// The connection string as a plain EF Core application would give it, less what Slots adds by default (the
    /// benchmark's EF Core baseline, BaselineDbContext).
    /// </summary>
    public virtual string PlainConnectionString(string connectionString) => connectionString;

    /// <summary>True when the driver's exception says a unique index refused a row.</summary>
    public abstract bool IsUniqueViolation(Exception exception);

    /// <summary>Drains at most <paramref name="batchSize"/> change records into the disk reservations, in one transaction; returns how many.</summary>
    public abstract Task<int> FlushChangesAsync(SlotsDbContext db, int batchSize, CancellationToken ct);

    /// <summary>
    /// Where a backend keeps a new hot booking's Idempotency-Key on its reservation row (PostgreSQL)
    /// rather than in idempotency: locks the key as the hot path does, for the rest of the
    /// transaction, and answers the fingerprint and code of the hot booking made under it, or null.
    /// </summary>
    public virtual Task<HotKey?> LockHotKeyAsync(SlotsDbContext db, string key, CancellationToken ct) => Task.FromResult<HotKey?>(null);

    /// <summary>
    /// The fingerprint and code of the hot booking made under the key, read in the context's transaction (a backend that
    /// keeps keys on hot rows, PostgreSQL and SQLite, answers <see cref="LockHotKeyAsync"/> with it).
    /// </summary>
    protected static async Task<HotKey?> ReadHotKeyAsync(SlotsDbContext db, string key, CancellationToken ct)
    {
        await using var read = db.Database.GetDbConnection().CreateCommand();
        read.Transaction = db.Database.CurrentTransaction?.GetDbTransaction();
        read.CommandText = "SELECT fingerprint, code FROM hot_reservations WHERE idem_key = @key";
        var parameter = read.CreateParameter();
        parameter.ParameterName = "@key";
        parameter.Value = key;
        read.Parameters.Add(parameter);
        await using var row = await read.ExecuteReaderAsync(ct);
        return await row.ReadAsync(ct) ? new HotKey(row.GetString(0), row.GetString(1)) : null;
    }

    /// <summary>When the oldest change still waiting for the flush happened (unix seconds), or null when none waits.</summary>
    public virtual Task<long?> OldestPendingChangeAsync(SlotsDbContext db, CancellationToken ct) => OldestPendingChange(db, ct);

    /// <summary>The oldest change record's time, in LINQ (the default, and SQL Server's).</summary>
    public static Task<long?> OldestPendingChange(SlotsDbContext db, CancellationToken ct) =>
        db.Changes.AsNoTracking().MinAsync(c => (long?)c.At, ct);
}

/// <summary>A hot booking's own Idempotency-Key record: the request's fingerprint and the booking's code.</summary>
public sealed record HotKey(string Fingerprint, string Code);
