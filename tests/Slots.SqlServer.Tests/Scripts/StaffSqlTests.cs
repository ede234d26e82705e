using System.Reflection;
using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Storage.SqlServer;

namespace Slots.SqlServer.Tests.Scripts;

/// <summary>
/// The site's day on SQL Server as its parser reads it: the door's attendance table beside the hot
/// ones, the append-only trail on disk, dbo.staff_check_in against the live dbo.cancel (exactly one
/// wins because both write the same hot row), and every statement SqlServerStaffStore sends.
/// </summary>
public sealed class StaffSqlTests
{
    public static TheoryData<string> StatementNames() =>
        [.. typeof(SqlServerStaffStore.Sql).GetFields(BindingFlags.Public | BindingFlags.Static).Select(f => f.Name)];

    private static string Statement(string name) =>
        (string)typeof(SqlServerStaffStore.Sql).GetField(name, BindingFlags.Public | BindingFlags.Static)!.GetValue(null)!;

    private static TSqlFragment Parse(string sql, TSqlParser parser)
    {
        using var reader = new StringReader(sql);
        var tree = parser.Parse(reader, out var errors);
        Assert.Empty(errors.Select(e => $"{e.Line}:{e.Column} {e.Message}"));
        return tree;
    }

    private static CreateTableStatement Table(string name) =>
        Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", name))));

    private static TSqlFragment Proc(string name) => SqlScripts.Tree(SqlScripts.FileOf("proc", name));

    private static string Columns(IEnumerable<ColumnWithSortOrder> columns) =>
        string.Join(",", columns.Select(c => c.Column.MultiPartIdentifier.Identifiers[^1].Value));

    [Fact]
    public void The_staff_scripts_take_the_block_from_060()
    {
        Assert.Equal(
            ["060_table_attendance.sql", "061_table_staff_audit.sql", "062_proc_staff_check_in.sql"],
            [SqlScripts.FileOf("table", "attendance"), SqlScripts.FileOf("table", "staff_audit"),
             SqlScripts.FileOf("proc", "staff_check_in")]);
    }

    [Fact]
    public void Attendance_is_keyed_by_code_on_a_range_index_and_read_by_place_and_day()
    {
        var table = Table("attendance");

        var key = Assert.Single(table.Definition.TableConstraints.OfType<UniqueConstraintDefinition>(), c => c.IsPrimaryKey);
        Assert.Equal("code", Columns(key.Columns));
        // Rows outlive the window: no bucket count to size, nothing for 046 to shrink on Express.
        Assert.Equal(IndexTypeKind.NonClustered, key.IndexType.IndexTypeKind);
        Assert.DoesNotContain(table.Definition.Indexes, i => i.IndexType?.IndexTypeKind == IndexTypeKind.NonClusteredHash);
        Assert.Contains(table.Definition.Indexes, i => Columns(i.Columns) == "place_id,day");
    }

    [Fact]
    public void The_trail_is_a_disk_table_with_an_identity_and_its_two_indexes()
    {
        var table = Table("staff_audit");

        Assert.Empty(table.Options.OfType<MemoryOptimizedTableOption>());
        var id = Assert.Single(table.Definition.ColumnDefinitions, c => c.ColumnIdentifier.Value == "id");
        Assert.NotNull(id.IdentityOptions);
        var key = Assert.Single(table.Definition.TableConstraints.OfType<UniqueConstraintDefinition>(), c => c.IsPrimaryKey);
        Assert.Equal("id", Columns(key.Columns));
        Assert.Equal(["at", "place_id,at"], table.Definition.Indexes.Select(i => Columns(i.Columns)).Order(StringComparer.Ordinal));
    }

    [Fact]
    public void A_check_in_writes_the_hot_row_the_cancel_deletes_so_a_race_is_a_write_write_conflict()
    {
        var checkIn = Proc("staff_check_in");
        var touch = Assert.Single(SqlScripts.All<UpdateSpecification>(checkIn),
            u => SqlScripts.NameOf(((NamedTableReference)u.Target).SchemaObject) == "hot_reservations");
        var cancel = Assert.Single(SqlScripts.All<DeleteSpecification>(Proc("cancel")),
            d => SqlScripts.NameOf(((NamedTableReference)d.Target).SchemaObject) == "hot_reservations");

        Assert.Equal("hot_reservations", SqlScripts.NameOf(((NamedTableReference)touch.Target).SchemaObject));
        Assert.Equal("WHERE CODE = @CODE", SqlScripts.Text(touch.WhereClause));
        Assert.Equal("WHERE CODE = @CODE", SqlScripts.Text(cancel.WhereClause));
        var insert = Assert.Single(SqlScripts.All<InsertSpecification>(checkIn));
        Assert.Equal("attendance", SqlScripts.NameOf(((NamedTableReference)insert.Target).SchemaObject));
        Assert.True(touch.StartOffset < insert.StartOffset, "the hot row is written before the attendance row");
    }

    [Fact]
    public void A_check_in_over_a_no_show_replaces_it()
    {
        var update = Assert.Single(SqlScripts.All<UpdateSpecification>(Proc("staff_check_in")),
            u => SqlScripts.NameOf(((NamedTableReference)u.Target).SchemaObject) == "attendance");

        Assert.Equal("WHERE CODE = @CODE AND STATE = 3", SqlScripts.Text(update.WhereClause));
        Assert.Contains("STATE = 2", SqlScripts.Text(update), StringComparison.Ordinal);
    }

    [Fact]
    public void A_check_in_answers_1_2_or_4_as_staff_check_in_does_on_PostgreSQL()
    {
        var answers = SqlScripts.All<SetVariableStatement>(Proc("staff_check_in"))
            .Where(s => s.Variable.Name == "@status").Select(s => SqlScripts.Text(s.Expression));

        Assert.Equal(["1", "2", "4"], answers.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void The_live_cancel_answers_4_for_a_checked_in_booking_and_keeps_its_other_answers()
    {
        var cancel = Proc("cancel");
        var outcomes = SqlScripts.All<SetVariableStatement>(cancel)
            .Where(s => s.Variable.Name == "@outcome").Select(s => SqlScripts.Text(s.Expression));

        Assert.Equal(["1", "2", "3", "4"], outcomes.Order(StringComparer.Ordinal));
        var door = Assert.Single(SqlScripts.All<QuerySpecification>(cancel), q => SqlScripts.Text(q).Contains("DBO.ATTENDANCE", StringComparison.Ordinal));
        Assert.Equal("WHERE CODE = @CODE AND STATE = 2", SqlScripts.Text(door.WhereClause));
    }

    [Fact]
    public void Cancel_and_reschedule_each_have_one_live_definition_after_every_table_they_read()
    {
        Assert.Equal(["084_proc_cancel.sql"], SqlScripts.FilesOf("proc", "cancel"));
        Assert.Equal(["085_proc_reschedule.sql"], SqlScripts.FilesOf("proc", "reschedule"));
    }

    [Theory]
    [MemberData(nameof(StatementNames))]
    public void Every_statement_the_store_sends_parses_as_SQL_Server_2016_and_2022_T_SQL(string name)
    {
        Parse(Statement(name), new TSql130Parser(initialQuotedIdentifiers: true));
        var tree = Parse(Statement(name), new TSql160Parser(initialQuotedIdentifiers: true));
        // Memory-optimized tables beside disk tables are read WITH (SNAPSHOT), the only isolation allowed there.
        var hot = SqlScripts.All<NamedTableReference>(tree).Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject)));
        Assert.All(hot, t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
    }

    [Fact]
    public void The_roster_reads_cancels_after_the_active_rows_and_waiting_cancels_before_flushed_ones()
    {
        // A cancel or a flush between two statements then shows a booking twice (the later state
        // kept), never not at all.
        var selects = SqlScripts.All<SelectStatement>(Parse(Statement(nameof(SqlServerStaffStore.Sql.Day)), new TSql160Parser(true)))
            .Select(SqlScripts.Text).Where(s => !s.StartsWith("SELECT @HOT", StringComparison.Ordinal)).ToList();

        Assert.Equal(3, selects.Count);
        Assert.Contains("FROM DBO.HOT_RESERVATIONS", selects[0], StringComparison.Ordinal);
        Assert.Contains("FROM DBO.CHANGES", selects[1], StringComparison.Ordinal);
        Assert.Contains("CANCELLED_AT IS NOT NULL", selects[2], StringComparison.Ordinal);
    }
}
