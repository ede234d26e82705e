using Microsoft.SqlServer.TransactSql.ScriptDom;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// The scripts as SQL Server's own parser reads them: TSql160Parser for SQL Server 2022 (what
/// docker-compose runs), and TSql130Parser too, which proves the syntax is SQL Server 2016's, the
/// oldest version the backend supports.
/// </summary>
public sealed class ScriptParsingTests
{
    [Theory]
    [MemberData(nameof(SqlScripts.FileNames), MemberType = typeof(SqlScripts))]
    public void Script_parses_without_errors_as_SQL_Server_2022_T_SQL(string file)
    {
        var (_, errors) = SqlScripts.Parse(file);
        Assert.Empty(errors.Select(e => $"{e.Line}:{e.Column} {e.Message}"));
    }

    [Theory]
    [MemberData(nameof(SqlScripts.FileNames), MemberType = typeof(SqlScripts))]
    public void Script_parses_without_errors_as_SQL_Server_2016_T_SQL(string file)
    {
        var (_, errors) = SqlScripts.Parse(file, new TSql130Parser(initialQuotedIdentifiers: true));
        Assert.Empty(errors.Select(e => $"{e.Line}:{e.Column} {e.Message}"));
    }

    [Fact]
    public void Scripts_are_numbered_in_deploy_order_without_gaps_or_twins()
    {
        var numbers = SqlScripts.Files().Select(f => int.Parse(Path.GetFileName(f)[..3], System.Globalization.CultureInfo.InvariantCulture)).ToList();
        // Work done in parallel takes its own block of ten (SMS: 030-039), so a gap may only end at a
        // block's start, or be a retired number: the script of a proc whose one live definition moved
        // after the tables it came to read (cancel and reschedule: 084, 085). A retired number is
        // never reused: databases that ran it have it in dbo.schema_migrations.
        int[] retired = [15, 16, 63];
        Assert.Equal(1, numbers[0]);
        Assert.Empty(numbers.Intersect(retired));
        var kept = numbers.Concat(retired).Order().ToList();
        Assert.All(kept.Zip(kept.Skip(1)), pair => Assert.True(
            pair.Second == pair.First + 1 || (pair.Second > pair.First && pair.Second % 10 == 0), $"{pair.First:000} is followed by {pair.Second:000}"));
        Assert.All(SqlScripts.Files(), f => Assert.Matches(@"^\d{3}_[a-z0-9_]+\.sql$", Path.GetFileName(f)));
    }

    [Theory]
    [MemberData(nameof(SqlScripts.FileNames), MemberType = typeof(SqlScripts))]
    public void Script_creates_at_most_one_object(string file)
    {
        if (file == SqlScripts.QuartzJobStore)
        {
            return; // Quartz.NET's job store: one third-party unit, deployed together (see the script's header)
        }
        var tree = SqlScripts.Tree(file);
        var created = SqlScripts.All<CreateTableStatement>(tree).Select(t => SqlScripts.NameOf(t.SchemaObjectName))
            .Concat(SqlScripts.All<CreateTypeTableStatement>(tree).Select(t => SqlScripts.NameOf(t.Name)))
            .Concat(SqlScripts.All<ProcedureStatementBody>(tree).Select(p => SqlScripts.NameOf(p.ProcedureReference.Name)))
            .ToList();
        Assert.True(created.Count <= 1, $"{file} creates {string.Join(", ", created)}");
    }

    [Theory]
    [MemberData(nameof(SqlScripts.FileNames), MemberType = typeof(SqlScripts))]
    public void Script_is_safe_to_rerun(string file)
    {
        var tree = SqlScripts.Tree(file);
        // Tables and types only under IF (OBJECT_ID/TYPE_ID check); procedures only as CREATE OR ALTER.
        var guarded = SqlScripts.All<IfStatement>(tree).SelectMany(i => SqlScripts.All<TSqlStatement>(i.ThenStatement)).ToHashSet();
        Assert.All(SqlScripts.All<CreateTableStatement>(tree), t => Assert.Contains(t, guarded));
        Assert.All(SqlScripts.All<CreateTypeTableStatement>(tree), t => Assert.Contains(t, guarded));
        Assert.Empty(SqlScripts.All<CreateProcedureStatement>(tree)); // CREATE OR ALTER is its own node type
    }

    // A schema-bound (native) proc does not compile on a fresh database when a table it names is
    // created by a later script; the migrator runs the scripts in file order.
    [Fact]
    public void Every_table_a_proc_names_is_created_by_an_earlier_script()
    {
        var createdIn = SqlScripts.Files().Select(Path.GetFileName)
            .SelectMany(f => SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(f!)).Select(t => (Table: SqlScripts.NameOf(t.SchemaObjectName), File: f!)))
            .ToDictionary(x => x.Table, x => x.File);
        var procs = SqlScripts.Files().Select(f => Path.GetFileName(f)!).Where(f => f.Contains("_proc_", StringComparison.Ordinal));

        Assert.All(procs, proc => Assert.All(
            SqlScripts.All<NamedTableReference>(SqlScripts.Tree(proc)).Select(t => SqlScripts.NameOf(t.SchemaObject)).Where(createdIn.ContainsKey),
            table => Assert.True(string.CompareOrdinal(createdIn[table], proc) < 0, $"{proc} names {table}, created later by {createdIn[table]}")));
    }

    [Fact]
    public void Every_hot_table_is_memory_optimized_and_durable()
    {
        foreach (var name in SqlScripts.HotTables)
        {
            var table = Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", name))));
            Assert.Equal(name, SqlScripts.NameOf(table.SchemaObjectName));
            var memory = Assert.Single(table.Options.OfType<MemoryOptimizedTableOption>());
            Assert.Equal(OptionState.On, memory.OptionState);
            var durability = Assert.Single(table.Options.OfType<DurabilityTableOption>());
            Assert.Equal(DurabilityTableOptionKind.SchemaAndData, durability.DurabilityTableOptionKind);
        }
    }

    [Fact]
    public void Disk_tables_are_not_memory_optimized()
    {
        foreach (var name in SqlScripts.DiskTables)
        {
            var table = Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", name))));
            Assert.Empty(table.Options.OfType<MemoryOptimizedTableOption>());
        }
    }

    [Fact]
    public void Sms_sent_is_a_disk_table_keyed_by_message_id()
    {
        var table = Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", "sms_sent"))));
        Assert.Empty(table.Options.OfType<MemoryOptimizedTableOption>());
        var key = Assert.Single(table.Definition.TableConstraints.OfType<UniqueConstraintDefinition>(), c => c.IsPrimaryKey);
        Assert.Equal("message_id", Assert.Single(key.Columns).Column.MultiPartIdentifier.Identifiers.Last().Value);
    }

    [Fact]
    public void Hash_indexes_have_a_power_of_two_bucket_count_for_five_million_keys()
    {
        var bucketCounts = BucketCounts(SqlScripts.HotTables
            .SelectMany(name => SqlScripts.All<IndexExpressionOption>(SqlScripts.Tree(SqlScripts.FileOf("table", name)))));
        Assert.NotEmpty(bucketCounts);
        Assert.All(bucketCounts, n =>
        {
            Assert.True((n & (n - 1)) == 0, $"{n} is not a power of two");
            Assert.InRange(n, 5_000_000, 2 * 5_000_000);
        });
    }

    [Fact]
    public void On_Express_every_hash_index_is_rebuilt_small_enough_for_the_352_MB_quota()
    {
        var declared = SqlScripts.HotTables
            .SelectMany(name => SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", name))))
            .SelectMany(t => HashIndexNames(t).Select(index => (Table: SqlScripts.NameOf(t.SchemaObjectName), Index: index)))
            .ToList();
        var tree = SqlScripts.Tree(SqlScripts.FileOf("index", "express_bucket_counts"));
        var express = Assert.Single(SqlScripts.All<IfStatement>(tree), i => SqlScripts.Text(i.Predicate).Contains("ENGINEEDITION", StringComparison.Ordinal));
        Assert.EndsWith("= 4", SqlScripts.Text(express.Predicate), StringComparison.Ordinal);
        var rebuilt = SqlScripts.All<AlterTableAlterIndexStatement>(express.ThenStatement).ToList();

        Assert.Equal(declared.Order(), rebuilt.Select(r => (Table: SqlScripts.NameOf(r.SchemaObjectName), Index: r.IndexIdentifier.Value)).Order());
        var sizes = BucketCounts(rebuilt.SelectMany(r => r.IndexOptions.OfType<IndexExpressionOption>()));
        Assert.Equal(rebuilt.Count, sizes.Count);
        // Five arrays of 8-byte buckets stay a small part of the quota.
        Assert.All(sizes, n => Assert.True((n & (n - 1)) == 0 && n * 8 * declared.Count <= 32L * 1024 * 1024, $"{n} buckets"));
    }

    private static List<long> BucketCounts(IEnumerable<IndexExpressionOption> options) =>
        options.Where(o => o.OptionKind == IndexOptionKind.BucketCount)
            .Select(o => long.Parse(((IntegerLiteral)o.Expression).Value, System.Globalization.CultureInfo.InvariantCulture))
            .ToList();

    private static IEnumerable<string> HashIndexNames(CreateTableStatement table) =>
        table.Definition.TableConstraints.OfType<UniqueConstraintDefinition>()
            .Where(c => c.IndexType?.IndexTypeKind == IndexTypeKind.NonClusteredHash)
            .Select(c => c.ConstraintIdentifier.Value)
            .Concat(table.Definition.Indexes
                .Where(i => i.IndexType?.IndexTypeKind == IndexTypeKind.NonClusteredHash)
                .Select(i => i.Name.Value));

    [Fact]
    public void Hot_seats_have_a_range_index_for_slot_scans()
    {
        var table = Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", "hot_seats"))));
        var range = table.Definition.Indexes.Where(i => i.IndexType?.IndexTypeKind is null or IndexTypeKind.NonClustered).ToList();
        Assert.Contains(range, i => string.Join(",", i.Columns.Select(c => c.Column.MultiPartIdentifier.Identifiers[^1].Value))
            .StartsWith("place_id,day,start_minute", StringComparison.Ordinal));
    }

    [Fact]
    public void Every_hot_path_proc_is_natively_compiled_and_atomic_at_snapshot()
    {
        foreach (var name in SqlScripts.NativeProcs)
        {
            var proc = Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(SqlScripts.Tree(SqlScripts.FileOf("proc", name))));
            var options = proc.Options.Select(o => o.OptionKind).ToList();
            Assert.Contains(ProcedureOptionKind.NativeCompilation, options);
            Assert.Contains(ProcedureOptionKind.SchemaBinding, options);
            var atomic = Assert.IsType<BeginEndAtomicBlockStatement>(Assert.Single(proc.StatementList.Statements));
            var atomicOptions = atomic.Options.Select(o => (o.OptionKind, SqlScripts.Text(o))).ToList();
            Assert.Contains((AtomicBlockOptionKind.IsolationLevel, "SNAPSHOT"), atomicOptions);
            Assert.Contains((AtomicBlockOptionKind.Language, "N'US_ENGLISH'"), atomicOptions);
            // Delayed durability would let a confirmed booking vanish in a crash.
            Assert.DoesNotContain(atomicOptions, o => o.OptionKind == AtomicBlockOptionKind.DelayedDurability);
        }
    }

    [Fact]
    public void Native_procs_touch_only_memory_optimized_tables()
    {
        foreach (var name in SqlScripts.NativeProcs)
        {
            var tree = SqlScripts.Tree(SqlScripts.FileOf("proc", name));
            var tables = SqlScripts.All<NamedTableReference>(tree).Select(t => SqlScripts.NameOf(t.SchemaObject)).Distinct().ToList();
            Assert.All(tables, t => Assert.Contains(t, SqlScripts.HotTables));
        }
    }

    [Fact]
    public void Native_procs_use_no_construct_native_compilation_refuses()
    {
        foreach (var name in SqlScripts.NativeProcs)
        {
            var file = SqlScripts.FileOf("proc", name);
            var tree = SqlScripts.Tree(file);
            Assert.Empty(SqlScripts.All<MergeStatement>(tree));
            Assert.Empty(SqlScripts.All<CommonTableExpression>(tree));
            Assert.Empty(SqlScripts.All<OutputClause>(tree));
            Assert.Empty(SqlScripts.All<OutputIntoClause>(tree));
            Assert.Empty(SqlScripts.All<DeclareCursorStatement>(tree));
            // Control flow is IF/ELSE, WHILE, RETURN, TRY/CATCH and THROW; BREAK, CONTINUE and GOTO are not on that list.
            Assert.Empty(SqlScripts.All<BreakStatement>(tree));
            Assert.Empty(SqlScripts.All<ContinueStatement>(tree));
            Assert.Empty(SqlScripts.All<GoToStatement>(tree));
            // Native code takes no table hints; its isolation is the atomic block's.
            Assert.Empty(SqlScripts.All<TableHint>(tree));
            Assert.DoesNotContain(SqlScripts.All<SchemaObjectName>(tree), n => n.BaseIdentifier?.Value.StartsWith('#') == true);
            // CASE only arrived in native modules with SQL Server 2017; the floor is 2016 SP1.
            Assert.Empty(SqlScripts.All<SearchedCaseExpression>(tree));
            Assert.Empty(SqlScripts.All<SimpleCaseExpression>(tree));
            foreach (var update in SqlScripts.All<UpdateSpecification>(tree))
            {
                Assert.Null(update.FromClause);
                Assert.Empty(SqlScripts.All<ScalarSubquery>(update));
            }
        }
    }

    [Fact]
    public void Sync_procs_are_interpreted_and_read_hot_tables_with_snapshot_hints()
    {
        foreach (var name in SqlScripts.SyncProcs)
        {
            var tree = SqlScripts.Tree(SqlScripts.FileOf("proc", name));
            var proc = Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(tree));
            Assert.DoesNotContain(ProcedureOptionKind.NativeCompilation, proc.Options.Select(o => o.OptionKind));
            var hot = SqlScripts.All<NamedTableReference>(tree).Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject))).ToList();
            Assert.All(hot, t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
            // Never SNAPSHOT as the session's isolation level.
            Assert.DoesNotContain(SqlScripts.All<SetTransactionIsolationLevelStatement>(tree), s => s.Level == IsolationLevel.Snapshot);
        }
    }

    [Fact]
    public void Quartz_job_store_creates_every_table_the_clustered_store_needs_on_disk()
    {
        var tables = SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.QuartzJobStore)).ToList();
        string[] needed = ["job_details", "triggers", "simple_triggers", "cron_triggers", "simprop_triggers", "blob_triggers",
            "calendars", "paused_trigger_grps", "paused_job_grps", "fired_triggers", "scheduler_state", "locks"];
        Assert.Equal(needed.Select(t => "qrtz_" + t).Order(), tables.Select(t => SqlScripts.NameOf(t.SchemaObjectName)).Order());
        Assert.All(tables, t => Assert.Empty(t.Options.OfType<MemoryOptimizedTableOption>()));
    }

    [Fact]
    public void Database_settings_enable_in_memory_oltp()
    {
        var text = SqlScripts.Text(SqlScripts.Tree("001_database_settings.sql"));
        Assert.Contains("CONTAINS MEMORY_OPTIMIZED_DATA", text, StringComparison.Ordinal);
        Assert.Contains("MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT = ON", text, StringComparison.Ordinal);
        Assert.Contains("COMPATIBILITY_LEVEL = 130", text, StringComparison.Ordinal);
    }
}
