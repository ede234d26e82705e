using System.Reflection;
using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Catalogue;
using Slots.Staff;
using Slots.Storage;
using Slots.Storage.SqlServer;

namespace Slots.SqlServer.Tests.Scripts;

/// <summary>The cold side's T-SQL on SQL Server: dbo.add_slots and the statements SqlServerCatalogStore sends.</summary>
public sealed class CatalogueSqlTests
{
    private static string[] Names() =>
        [.. typeof(SqlServerCatalogStore.Sql).GetFields(BindingFlags.Public | BindingFlags.Static).Select(f => f.Name)];

    public static TheoryData<string> StatementNames() => [.. Names()];

    private static string Statement(string name) =>
        (string)typeof(SqlServerCatalogStore.Sql).GetField(name, BindingFlags.Public | BindingFlags.Static)!.GetValue(null)!;

    private static TSqlFragment Parse(string sql, TSqlParser parser)
    {
        using var reader = new StringReader(sql);
        var tree = parser.Parse(reader, out var errors);
        Assert.Empty(errors.Select(e => $"{e.Line}:{e.Column} {e.Message}"));
        return tree;
    }

    [Theory]
    [MemberData(nameof(StatementNames))]
    public void Every_catalogue_statement_parses_as_SQL_Server_2016_and_2022_T_SQL(string name)
    {
        Parse(Statement(name), new TSql130Parser(initialQuotedIdentifiers: true));
        var tree = Parse(Statement(name), new TSql160Parser(initialQuotedIdentifiers: true));
        // Memory-optimized tables next to disk tables are read WITH (SNAPSHOT), the only isolation allowed there.
        var hot = SqlScripts.All<NamedTableReference>(tree).Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject)));
        Assert.All(hot, t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
    }

    [Fact]
    public void The_statements_are_found()
    {
        Assert.Contains(nameof(SqlServerCatalogStore.Sql.DayTotals), Names());
        Assert.Contains(nameof(SqlServerCatalogStore.Sql.ListPlaces), Names());
    }

    // Issue #28: the door's check-ins and no-shows in the stats; a place filter that misses one result set would mix places.
    [Fact]
    public void Day_totals_count_the_doors_check_ins_and_no_shows_and_every_result_set_takes_the_place_filter()
    {
        var tree = Parse(SqlServerCatalogStore.Sql.DayTotals, new TSql160Parser(initialQuotedIdentifiers: true));

        var selects = SqlScripts.All<QuerySpecification>(tree);
        Assert.Equal(4, selects.Count);
        Assert.All(selects, q => Assert.Contains("@PLACE", SqlScripts.Text(q.WhereClause), StringComparison.Ordinal));
        var door = Assert.Single(selects, q => SqlScripts.All<NamedTableReference>(q).Any(t => SqlScripts.NameOf(t.SchemaObject) == "attendance"));
        Assert.Contains($"STATE IN ({(int)RosterState.CheckedIn}, {(int)RosterState.NoShow})", SqlScripts.Text(door.WhereClause), StringComparison.Ordinal);
    }

    [Fact]
    public void Catalogue_procs_are_interpreted_lock_the_place_and_read_hot_tables_with_snapshot_hints()
    {
        foreach (var name in SqlScripts.CatalogueProcs)
        {
            var tree = SqlScripts.Tree(SqlScripts.FileOf("proc", name));
            var proc = Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(tree));
            Assert.DoesNotContain(ProcedureOptionKind.NativeCompilation, proc.Options.Select(o => o.OptionKind));
            var tables = SqlScripts.All<NamedTableReference>(tree);
            Assert.All(tables.Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject))),
                t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
            var place = Assert.Single(tables, t => SqlScripts.NameOf(t.SchemaObject) == "places");
            Assert.Contains(place.TableHints, h => h.HintKind == TableHintKind.UpdLock);
            Assert.Contains(place.TableHints, h => h.HintKind == TableHintKind.HoldLock);
            Assert.Contains("SET XACT_ABORT ON", SqlScripts.Text(proc), StringComparison.Ordinal);
            Assert.Single(SqlScripts.All<BeginTransactionStatement>(tree));
            Assert.Single(SqlScripts.All<CommitTransactionStatement>(tree));
        }
    }

    [Fact]
    public void The_slot_list_the_adapter_sends_has_the_columns_of_the_table_type_in_order()
    {
        var type = Assert.Single(SqlScripts.All<CreateTypeTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("type", "slot_list"))));
        var declared = type.Definition.ColumnDefinitions.Select(c => c.ColumnIdentifier.Value).ToList();

        var sent = SqlServerCommands.SlotList([new SlotRow { PlaceId = 1, Day = new DateOnly(2026, 12, 1), StartMinute = 480, Minutes = 15, Capacity = 4, StartsAt = 1 }]);

        Assert.Equal(declared, sent.Columns.Cast<System.Data.DataColumn>().Select(c => c.ColumnName));
        Assert.Equal(new object[] { new DateTime(2026, 12, 1), 480, 15, 4, 1L }, sent.Rows[0].ItemArray);
    }

    [Fact]
    public void Add_slots_takes_the_slot_list_type_read_only()
    {
        var proc = Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(SqlScripts.Tree(SqlScripts.FileOf("proc", "add_slots"))));
        var list = Assert.Single(proc.Parameters, p => p.VariableName.Value == "@slots");
        Assert.Equal("slot_list", list.DataType.Name.BaseIdentifier.Value);
        Assert.Equal(Microsoft.SqlServer.TransactSql.ScriptDom.ParameterModifier.ReadOnly, list.Modifier);
    }
}
