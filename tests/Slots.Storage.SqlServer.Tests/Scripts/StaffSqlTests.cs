using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// The site's day on SQL Server as its parser reads it: the door's attendance table beside the hot
/// ones, the append-only trail on disk, dbo.staff_check_in against the live dbo.cancel (exactly one
/// wins because both write the same hot row), and the no-show job's proc beside them. The roster
/// and the trail are the shared EF Core store's, held against these tables by EfModelMappingTests.
/// </summary>
public sealed class StaffSqlTests
{
    private static CreateTableStatement Table(string name) =>
        Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", name))));

    private static TSqlFragment Proc(string name) => SqlScripts.Tree(SqlScripts.FileOf("proc", name));

    private static string Columns(IEnumerable<ColumnWithSortOrder> columns) =>
        string.Join(",", columns.Select(c => c.Column.MultiPartIdentifier.Identifiers[^1].Value));

    [Fact]
    public void The_staff_scripts_take_the_block_from_060()
    {
        Assert.Equal(
            ["060_table_attendance.sql", "061_table_staff_audit.sql", "062_proc_staff_check_in.sql", "068_proc_staff_mark_no_shows.sql"],
            [SqlScripts.FileOf("table", "attendance"), SqlScripts.FileOf("table", "staff_audit"),
             SqlScripts.FileOf("proc", "staff_check_in"), SqlScripts.FileOf("proc", "staff_mark_no_shows")]);
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
    public void The_live_reschedule_answers_13_for_a_checked_in_booking_after_a_retry_and_before_any_write()
    {
        var reschedule = Proc("reschedule");
        var thirteen = Assert.Single(SqlScripts.All<SetVariableStatement>(reschedule),
            s => s.Variable.Name == "@outcome" && SqlScripts.Text(s.Expression) == "13");
        var retry = Assert.Single(SqlScripts.All<SetVariableStatement>(reschedule),
            s => s.Variable.Name == "@outcome" && SqlScripts.Text(s.Expression) == "1" && s.StartOffset < thirteen.StartOffset);
        var door = Assert.Single(SqlScripts.All<QuerySpecification>(reschedule), q => SqlScripts.Text(q).Contains("DBO.ATTENDANCE", StringComparison.Ordinal));
        var firstWrite = SqlScripts.All<UpdateSpecification>(reschedule).Min(u => u.StartOffset);

        Assert.Equal("WHERE CODE = @CODE AND STATE = 2", SqlScripts.Text(door.WhereClause));
        Assert.True(retry.StartOffset < door.StartOffset, "a retried move that already happened answers 1 before the door is read");
        Assert.True(thirteen.StartOffset < firstWrite, "a checked-in booking is refused before any seat is written");
    }

    [Fact]
    public void Cancel_and_reschedule_each_have_one_live_definition_after_every_table_they_read()
    {
        Assert.Equal(["084_proc_cancel.sql"], SqlScripts.FilesOf("proc", "cancel"));
        Assert.Equal(["085_proc_reschedule.sql"], SqlScripts.FilesOf("proc", "reschedule"));
    }

    [Fact]
    public void The_no_show_proc_is_interpreted_reads_hot_tables_with_snapshot_and_answers_each_place_it_marked()
    {
        var tree = Proc("staff_mark_no_shows");
        var proc = Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(tree));

        Assert.DoesNotContain(ProcedureOptionKind.NativeCompilation, proc.Options.Select(o => o.OptionKind));
        var hot = SqlScripts.All<NamedTableReference>(tree).Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject))).ToList();
        Assert.Equal(3, hot.Count);
        Assert.All(hot, t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
        var insert = Assert.Single(SqlScripts.All<InsertSpecification>(tree));
        Assert.Equal("attendance", SqlScripts.NameOf(((NamedTableReference)insert.Target).SchemaObject));
        Assert.Equal("OUTPUT INSERTED.PLACE_ID", SqlScripts.Text(insert.OutputClause));
        // Only a booking with no door record becomes a no-show: a check-in or a site's cancel keeps its own.
        Assert.Contains("AND NOT EXISTS (SELECT 1 FROM DBO.ATTENDANCE A WITH (SNAPSHOT) WHERE A.CODE = H.CODE)",
            SqlScripts.Text(insert), StringComparison.Ordinal);
    }
}
