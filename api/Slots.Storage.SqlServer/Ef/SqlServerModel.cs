using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Metadata;
using Slots.Storage.Ef;

namespace Slots.Storage.SqlServer.Ef;

/// <summary>
/// The shared EF Core model as sql/ creates its tables on SQL Server: which tables are
/// memory-optimized, and the column types the scripts declare where they differ from EF's default
/// (a string is nvarchar(max) to EF; the scripts say varchar(16) for a code). The types matter beyond
/// looks: a parameter typed nvarchar against a varchar column converts the column, and the hash and
/// range indexes on it are not sought. tests/Slots.SqlServer.Tests holds this model against the
/// scripts' CREATE TABLE statements, column by column.
/// </summary>
public sealed class SqlServerModel(ModelCustomizerDependencies dependencies) : RelationalModelCustomizer(dependencies)
{
    /// <summary>The tables the scripts create WITH (MEMORY_OPTIMIZED = ON): the hot seats and what the native procs write beside them.</summary>
    public static readonly IReadOnlySet<string> MemoryOptimized = new HashSet<string>(StringComparer.Ordinal)
    {
        "hot_seats", "hot_reservations", "active_persons", "idempotency", "outbox", "changes", "attendance",
    };

    /// <summary>Column types by column name, the same in every table that has the column.</summary>
    private static readonly Dictionary<string, string> Types = new(StringComparer.Ordinal)
    {
        ["code"] = "varchar(16)",
        ["phone"] = "varchar(16)",
        ["language"] = "varchar(8)",
        ["person_hash"] = "varchar(64)",
        ["fingerprint"] = "varchar(64)",
        ["token"] = "varchar(64)",
        ["name"] = "nvarchar(100)",
        ["actor"] = "nvarchar(256)",
        ["by"] = "nvarchar(256)",
        ["note"] = "nvarchar(100)",
    };

    /// <summary>Column types of one table's own.</summary>
    private static readonly Dictionary<(string Table, string Column), string> TableTypes = new()
    {
        [("places", "name")] = "nvarchar(200)",
        [("places", "address")] = "nvarchar(400)",
        [("places", "region")] = "nvarchar(100)",
        [("places", "time_zone")] = "varchar(64)",
        [("places", "opening_hours")] = "nvarchar(500)",
        [("idempotency", "key")] = "varchar(100)",
        [("job_runs", "job")] = "varchar(100)",
        [("job_runs", "instance")] = "nvarchar(200)",
        [("site_cancels", "reason")] = "nvarchar(100)",
        [("site_cancels", "reopened_by")] = "nvarchar(256)",
        [("staff_audit", "action")] = "varchar(64)",
        [("staff_audit", "target")] = "nvarchar(200)",
        [("staff_audit", "reason")] = "nvarchar(1000)",
        [("machine_keys", "role")] = "varchar(16)",
        [("machine_keys", "hash")] = "varchar(64)",
        [("machine_keys", "created_by")] = "nvarchar(256)",
        [("machine_keys", "revoked_by")] = "nvarchar(256)",
        [("services", "code")] = "varchar(32)",
        [("services", "name_sk")] = "nvarchar(100)",
        [("services", "name_en")] = "nvarchar(100)",
        [("invitation_batches", "label")] = "nvarchar(100)",
        [("invitation_batches", "created_by")] = "nvarchar(256)",
        [("invitation_batches", "revoked_by")] = "nvarchar(256)",
        [("invitation_codes", "hash")] = "varchar(64)",
        [("invitation_codes", "spent_code")] = "varchar(16)",
        [("dose_pairs", "first_code")] = "varchar(16)",
        [("dose_pairs", "second_code")] = "varchar(16)",
    };

    /// <summary>Points an EF Core context at SQL Server with this model: the one place the backend and the tests configure it.</summary>
    public static DbContextOptionsBuilder Use(DbContextOptionsBuilder options, string connectionString) =>
        options.UseSqlServer(connectionString).ReplaceService<IModelCustomizer, SqlServerModel>();

    public override void Customize(ModelBuilder modelBuilder, DbContext context)
    {
        base.Customize(modelBuilder, context);
        // The name search's lower-casing is SQL Server's own LOWER, which follows the column's
        // collation's Unicode rules ("Č" to "č"), as the catalogue's search always did here.
        modelBuilder.HasDbFunction(typeof(SearchText).GetMethod(nameof(SearchText.Lower))!).HasName("LOWER").IsBuiltIn();
        foreach (var entity in modelBuilder.Model.GetEntityTypes())
        {
            var table = entity.GetTableName()!;
            modelBuilder.Entity(entity.ClrType).ToTable(t => t.IsMemoryOptimized(MemoryOptimized.Contains(table)));
            foreach (var property in entity.GetProperties())
            {
                var column = property.GetColumnName();
                if (TableTypes.TryGetValue((table, column), out var type) || Types.TryGetValue(column, out type))
                {
                    property.SetColumnType(type);
                }
            }
        }
    }
}
