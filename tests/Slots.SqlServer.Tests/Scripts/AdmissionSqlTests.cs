using System.Reflection;
using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Storage.SqlServer;

namespace Slots.SqlServer.Tests.Scripts;

/// <summary>
/// The waiting room on SQL Server as its parser reads it: counters in memory-optimized tables
/// beside the hot ones, interpreted procs that write them in one transaction with SNAPSHOT hints,
/// the counter step guarded, and every statement SqlServerAdmissionStore sends.
/// </summary>
public sealed class AdmissionSqlTests
{
    public static TheoryData<string> StatementNames() =>
        [.. typeof(SqlServerAdmissionStore.Sql).GetFields(BindingFlags.Public | BindingFlags.Static).Select(f => f.Name)];

    private static string Statement(string name) =>
        (string)typeof(SqlServerAdmissionStore.Sql).GetField(name, BindingFlags.Public | BindingFlags.Static)!.GetValue(null)!;

    private static TSqlFragment Parse(string sql, TSqlParser parser)
    {
        using var reader = new StringReader(sql);
        var tree = parser.Parse(reader, out var errors);
        Assert.Empty(errors.Select(e => $"{e.Line}:{e.Column} {e.Message}"));
        return tree;
    }

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
    [MemberData(nameof(StatementNames))]
    public void Every_statement_the_store_sends_parses_as_SQL_Server_2016_and_2022_T_SQL(string name)
    {
        Parse(Statement(name), new TSql130Parser(initialQuotedIdentifiers: true));
        var tree = Parse(Statement(name), new TSql160Parser(initialQuotedIdentifiers: true));
        var hot = SqlScripts.All<NamedTableReference>(tree).Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject)));
        Assert.All(hot, t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
    }
}
