using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Admission;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// The waiting room on SQL Server as its parser reads it: counters in memory-optimized tables
/// beside the hot ones, interpreted procs that write them in one transaction with SNAPSHOT hints,
/// the counter step guarded, and every other proc SqlServerAdmissionStore calls (sql/117-124).
/// </summary>
public sealed class AdmissionSqlTests
{
    /// <summary>The store's one-statement procs: an opening's life, its reads, a claim given back.</summary>
    public static readonly string[] StatementProcs =
    [
        "waiting_room_create", "waiting_room_close", "waiting_room_find", "waiting_room_load",
        "waiting_room_seal", "waiting_room_free_seats", "waiting_room_outstanding", "waiting_room_release",
    ];

    public static TheoryData<string> StatementProcNames() => [.. StatementProcs];

    private static CreateOrAlterProcedureStatement Proc(string name) =>
        Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(SqlScripts.Tree(SqlScripts.FileOf("proc", name))));

    [Fact]
    public void The_counters_are_memory_optimized_durable_tables_with_range_indexes_only()
    {
        foreach (var name in SqlScripts.AdmissionTables)
        {
            var table = Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", name))));
            Assert.Equal(OptionState.On, Assert.Single(table.Options.OfType<MemoryOptimizedTableOption>()).OptionState);
            Assert.Equal(DurabilityTableOptionKind.SchemaAndData, Assert.Single(table.Options.OfType<DurabilityTableOption>()).DurabilityTableOptionKind);
            // Joins can run to millions per opening: no hash index to size up front, nor to fit Express's quota.
            Assert.DoesNotContain(table.Definition.TableConstraints.OfType<UniqueConstraintDefinition>(),
                c => c.IndexType?.IndexTypeKind == IndexTypeKind.NonClusteredHash);
            Assert.DoesNotContain(table.Definition.Indexes, i => i.IndexType?.IndexTypeKind == IndexTypeKind.NonClusteredHash);
        }
    }

    [Fact]
    public void A_person_has_one_ticket_per_opening_and_a_ticket_one_person()
    {
        var table = Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", "waiting_room_joins"))));
        var keys = table.Definition.TableConstraints.OfType<UniqueConstraintDefinition>()
            .Select(c => (c.IsPrimaryKey, Columns: string.Join(",", c.Columns.Select(x => x.Column.MultiPartIdentifier.Identifiers[^1].Value))))
            .ToList();

        Assert.Contains((true, "opening_id,person_hash"), keys);
        Assert.Contains((false, "opening_id,ticket"), keys);
    }

    [Fact]
    public void The_procs_are_interpreted_one_transaction_each_and_touch_the_counters_with_snapshot_hints()
    {
        foreach (var name in SqlScripts.AdmissionProcs)
        {
            var tree = SqlScripts.Tree(SqlScripts.FileOf("proc", name));
            var proc = Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(tree));
            Assert.DoesNotContain(ProcedureOptionKind.NativeCompilation, proc.Options.Select(o => o.OptionKind));
            Assert.Contains("SET XACT_ABORT ON", SqlScripts.Text(proc), StringComparison.Ordinal);
            Assert.Single(SqlScripts.All<BeginTransactionStatement>(tree));
            var hot = SqlScripts.All<NamedTableReference>(tree).Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject))).ToList();
            Assert.NotEmpty(hot);
            Assert.All(hot, t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
            Assert.DoesNotContain(SqlScripts.All<SetTransactionIsolationLevelStatement>(tree), s => s.Level == IsolationLevel.Snapshot);
        }
    }

    [Fact]
    public void A_counter_step_is_written_only_at_the_version_and_counter_it_read()
    {
        var tree = SqlScripts.Tree(SqlScripts.FileOf("proc", "waiting_room_step"));
        var update = Assert.Single(SqlScripts.All<UpdateSpecification>(tree));
        var where = SqlScripts.Text(update.WhereClause);

        Assert.Contains("VERSION = @SEEN_VERSION", where, StringComparison.Ordinal);
        Assert.Contains("SERVED = @SEEN_SERVED", where, StringComparison.Ordinal);
        Assert.Contains("STATE = 1", where, StringComparison.Ordinal);
        Assert.Contains("VERSION = VERSION + 1", SqlScripts.Text(update), StringComparison.Ordinal);
    }

    [Fact]
    public void A_join_batch_seals_the_pre_queue_before_it_takes_tickets()
    {
        var tree = SqlScripts.Tree(SqlScripts.FileOf("proc", "waiting_room_join"));
        var updates = SqlScripts.All<UpdateSpecification>(tree);

        Assert.Equal(2, updates.Count);
        Assert.Contains("SET PRE_QUEUE = JOINED", SqlScripts.Text(updates[0]), StringComparison.Ordinal);
        Assert.Contains("OPENS_AT <= @NOW", SqlScripts.Text(updates[0].WhereClause), StringComparison.Ordinal);
        Assert.Contains("SET JOINED = @JOINED + @ADDED", SqlScripts.Text(updates[1]), StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(StatementProcNames))]
    public void Every_other_proc_the_store_calls_parses_as_SQL_Server_2016_and_2022_T_SQL_interpreted_with_snapshot_hints(string name)
    {
        var file = SqlScripts.FileOf("proc", name);
        Assert.Empty(SqlScripts.Parse(file, new TSql130Parser(initialQuotedIdentifiers: true)).Errors);
        var proc = Proc(name);
        Assert.DoesNotContain(ProcedureOptionKind.NativeCompilation, proc.Options.Select(o => o.OptionKind));
        var hot = SqlScripts.All<NamedTableReference>(proc).Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject))).ToList();
        Assert.NotEmpty(hot);
        Assert.All(hot, t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
    }

    [Theory]
    [InlineData("waiting_room_find")]
    [InlineData("waiting_room_load")]
    public void An_opening_is_read_in_the_columns_the_shared_reader_maps_in_its_order(string name)
    {
        var expected = AdmissionRows.OpeningColumns.Split(',').Select(c => c.Trim());
        var opening = SqlScripts.All<QuerySpecification>(Proc(name)).First();
        var columns = opening.SelectElements.Cast<SelectScalarExpression>()
            .Select(c => ((ColumnReferenceExpression)c.Expression).MultiPartIdentifier.Identifiers[^1].Value);

        Assert.Equal(expected, columns);
    }

    [Fact]
    public void A_close_and_a_seal_write_only_an_open_opening_and_answer_whether_they_did()
    {
        var close = Proc("waiting_room_close");
        Assert.Equal("WHERE ID = @ID AND STATE = 1", SqlScripts.Text(Assert.Single(SqlScripts.All<UpdateSpecification>(close)).WhereClause));
        Assert.Contains("@CLOSED INT = @@ROWCOUNT", SqlScripts.Text(close), StringComparison.Ordinal);

        var seal = Proc("waiting_room_seal");
        Assert.Equal("WHERE ID = @ID AND PRE_QUEUE IS NULL AND OPENS_AT <= @NOW AND STATE = 1",
            SqlScripts.Text(Assert.Single(SqlScripts.All<UpdateSpecification>(seal)).WhereClause));
        Assert.Contains("@SEALED INT = @@ROWCOUNT", SqlScripts.Text(seal), StringComparison.Ordinal);
    }
}
