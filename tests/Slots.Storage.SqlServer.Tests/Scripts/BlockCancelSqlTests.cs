using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// A site's block cancel on SQL Server as its parser reads it: the block's disk table and the two
/// columns it adds (sql/064), the open and batch procs (sql/065, sql/066) beside the native cancel
/// and check-in, and the finish (sql/067). The look for stalled blocks is the shared EF Core store's.
/// </summary>
public sealed class BlockCancelSqlTests
{
    private const string Schema = "064_site_cancels.sql";

    private static TSqlFragment Proc(string name) => SqlScripts.Tree(SqlScripts.FileOf("proc", name));

    private static string NameOf(TableReference target) => SqlScripts.NameOf(((NamedTableReference)target).SchemaObject);

    private static string Columns(IEnumerable<ColumnWithSortOrder> columns) =>
        string.Join(",", columns.Select(c => c.Column.MultiPartIdentifier.Identifiers[^1].Value));

    public static TheoryData<string> ProcNames() => ["site_cancel_open", "site_cancel_batch", "site_cancel_finish"];

    [Fact]
    public void The_block_cancel_scripts_follow_the_staff_scripts()
    {
        Assert.Equal(
            [Schema, "065_proc_site_cancel_open.sql", "066_proc_site_cancel_batch.sql", "067_proc_site_cancel_finish.sql"],
            [Path.GetFileName(SqlScripts.Files().Single(f => Path.GetFileName(f) == Schema)),
             SqlScripts.FileOf("proc", "site_cancel_open"), SqlScripts.FileOf("proc", "site_cancel_batch"),
             SqlScripts.FileOf("proc", "site_cancel_finish")]);
    }

    [Fact]
    public void Site_cancels_is_a_disk_table_with_one_row_per_block_and_an_index_that_leads_with_the_unfinished()
    {
        var table = Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(Schema)));

        Assert.Equal("site_cancels", SqlScripts.NameOf(table.SchemaObjectName));
        Assert.Empty(table.Options.OfType<MemoryOptimizedTableOption>());
        Assert.NotNull(Assert.Single(table.Definition.ColumnDefinitions, c => c.ColumnIdentifier.Value == "id").IdentityOptions);
        var keys = table.Definition.TableConstraints.OfType<UniqueConstraintDefinition>().ToList();
        Assert.Equal("id", Columns(Assert.Single(keys, k => k.IsPrimaryKey).Columns));
        Assert.Equal("place_id,day,from_minute,to_minute", Columns(Assert.Single(keys, k => !k.IsPrimaryKey).Columns));
        Assert.Equal("finished_at,progress_at", Columns(Assert.Single(table.Definition.Indexes).Columns));
        var notNull = table.Definition.ColumnDefinitions
            .Where(c => !c.Constraints.OfType<NullableConstraintDefinition>().Single().Nullable).Select(c => c.ColumnIdentifier.Value);
        Assert.DoesNotContain("finished_at", notNull);
    }

    [Theory]
    [InlineData("slots", "closed_by", "BIGINT NULL")]
    [InlineData("outbox", "note", "NVARCHAR(100) NULL")]
    public void A_column_the_block_needs_is_added_once_under_a_col_length_check(string table, string column, string definition)
    {
        var guarded = SqlScripts.All<IfStatement>(SqlScripts.Tree(Schema))
            .Where(i => SqlScripts.Text(i.Predicate) == $"COL_LENGTH(N'DBO.{table.ToUpperInvariant()}', N'{column.ToUpperInvariant()}') IS NULL");

        var add = Assert.IsType<AlterTableAddTableElementStatement>(Assert.Single(guarded).ThenStatement);
        Assert.Equal(table, SqlScripts.NameOf(add.SchemaObjectName));
        Assert.Equal($"{column.ToUpperInvariant()} {definition}", SqlScripts.Text(Assert.Single(add.Definition.ColumnDefinitions)));
    }

    [Theory]
    [MemberData(nameof(ProcNames))]
    public void A_block_cancel_proc_is_interpreted_one_transaction_that_aborts_whole_and_reads_hot_tables_with_snapshot(string name)
    {
        var tree = Proc(name);
        var proc = Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(tree));

        Assert.DoesNotContain(ProcedureOptionKind.NativeCompilation, proc.Options.Select(o => o.OptionKind));
        Assert.Contains(SqlScripts.All<PredicateSetStatement>(tree), s => s.Options.HasFlag(SetOptions.XactAbort) && s.IsOn);
        Assert.Single(SqlScripts.All<BeginTransactionStatement>(tree));
        var hot = SqlScripts.All<NamedTableReference>(tree).Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject))).ToList();
        Assert.NotEmpty(hot);
        Assert.All(hot, t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
        Assert.DoesNotContain(SqlScripts.All<SetTransactionIsolationLevelStatement>(tree), s => s.Level == IsolationLevel.Snapshot);
    }

    [Fact]
    public void The_open_closes_the_block_drops_its_free_seats_and_writes_the_trail_once()
    {
        var open = Proc("site_cancel_open");

        var close = Assert.Single(SqlScripts.All<UpdateSpecification>(open));
        Assert.Equal("slots", NameOf(close.Target));
        Assert.Contains("CLOSED_BY IS NULL", SqlScripts.Text(close.WhereClause), StringComparison.Ordinal);
        var seats = Assert.Single(SqlScripts.All<DeleteSpecification>(open));
        Assert.Equal("hot_seats", NameOf(seats.Target));
        Assert.EndsWith("AND CODE IS NULL", SqlScripts.Text(seats.WhereClause), StringComparison.Ordinal);
        var inserts = SqlScripts.All<InsertSpecification>(open).Select(i => NameOf(i.Target)).ToList();
        Assert.Equal(["site_cancels", "staff_audit"], inserts);
        Assert.Contains("'BLOCK-CANCEL'", SqlScripts.Text(SqlScripts.All<InsertSpecification>(open)[1]), StringComparison.Ordinal);
        // An existing block is found under an update lock held to the end, so two opens queue instead of racing to the key.
        var find = SqlScripts.All<NamedTableReference>(open).First(t => SqlScripts.NameOf(t.SchemaObject) == "site_cancels");
        Assert.Equal([TableHintKind.UpdLock, TableHintKind.HoldLock], find.TableHints.Select(h => h.HintKind));
    }

    [Fact]
    public void A_batch_marks_each_booking_cancelled_by_the_site_before_it_writes_anything_else_for_it()
    {
        var batch = Proc("site_cancel_batch");
        var writes = SqlScripts.All<DataModificationSpecification>(batch).Where(w => w is not InsertSpecification { Target: VariableTableReference }).ToList();

        var attendance = Assert.IsType<InsertSpecification>(writes[0]);
        Assert.Equal("attendance", NameOf(attendance.Target));
        Assert.Contains("SELECT CODE, @PLACE_ID, @DAY, 5, @NOW, @ACTOR FROM @PICKED", SqlScripts.Text(attendance), StringComparison.Ordinal);
        // The bookings taken are those without an attendance row (checked in, no-show, or cancelled by the site before).
        var picks = SqlScripts.All<InsertSpecification>(batch).Where(i => i.Target is VariableTableReference).ToList();
        Assert.Equal(2, picks.Count);
        Assert.All(picks, p => Assert.Contains("NOT EXISTS (SELECT 1 FROM DBO.ATTENDANCE", SqlScripts.Text(p), StringComparison.Ordinal));
        Assert.Contains("H.STARTS_AT > @NOW", SqlScripts.Text(picks[0]), StringComparison.Ordinal);
        Assert.Contains("R.CANCELLED_AT IS NULL", SqlScripts.Text(picks[1]), StringComparison.Ordinal);
    }

    [Fact]
    public void A_batch_writes_the_site_cancel_sms_with_its_reason_and_the_change_record_as_the_cancel_does()
    {
        var inserts = SqlScripts.All<InsertSpecification>(Proc("site_cancel_batch")).Where(i => i.Target is NamedTableReference).ToList();

        var outbox = Assert.Single(inserts, i => NameOf(i.Target) == "outbox");
        Assert.Contains("SELECT 4, CODE,", SqlScripts.Text(outbox), StringComparison.Ordinal);
        Assert.Contains("@REASON FROM @PICKED", SqlScripts.Text(outbox), StringComparison.Ordinal);
        var changes = Assert.Single(inserts, i => NameOf(i.Target) == "changes");
        var cancel = Assert.Single(SqlScripts.All<InsertSpecification>(Proc("cancel")), i => NameOf(i.Target) == "changes");
        Assert.Equal(cancel.Columns.Select(SqlScripts.Text), changes.Columns.Select(SqlScripts.Text));
        Assert.Contains("SELECT 2, CODE,", SqlScripts.Text(changes), StringComparison.Ordinal);
    }

    [Fact]
    public void A_batch_deletes_the_hot_row_the_cancel_deletes_and_the_check_in_updates_so_a_race_is_a_write_write_conflict()
    {
        var batch = Proc("site_cancel_batch");

        // The aliases name the tables in the FROM clause.
        var targets = SqlScripts.All<DeleteSpecification>(batch)
            .Select(d => d.FromClause is null ? NameOf(d.Target) : SqlScripts.Text(d.FromClause))
            .ToList();
        Assert.Contains(targets, t => t.StartsWith("FROM DBO.HOT_RESERVATIONS H WITH (SNAPSHOT) JOIN @PICKED P ON P.CODE = H.CODE", StringComparison.Ordinal));
        Assert.Contains(targets, t => t.StartsWith("FROM DBO.ACTIVE_PERSONS AP", StringComparison.Ordinal) && t.Contains("P.CODE = AP.CODE", StringComparison.Ordinal));
        // The taken seat goes (the slot is closed): no seat of the block is freed for another booking.
        Assert.DoesNotContain(SqlScripts.All<UpdateSpecification>(batch), u => u.FromClause is null && NameOf(u.Target) == "hot_seats");
        Assert.Contains(targets, t => t.StartsWith("FROM DBO.HOT_SEATS S", StringComparison.Ordinal));
        Assert.Contains(targets, t => t == "hot_seats");
    }

    [Fact]
    public void A_batch_counts_what_it_took_and_moves_progress_on()
    {
        var update = Assert.Single(SqlScripts.All<UpdateSpecification>(Proc("site_cancel_batch")), u => u.FromClause is null);

        Assert.Equal("UPDATE DBO.SITE_CANCELS SET CANCELLED = CANCELLED + @TAKEN, PROGRESS_AT = @NOW WHERE ID = @ID", SqlScripts.Text(update));
    }

    [Fact]
    public void The_finish_takes_the_block_row_as_the_batch_does_and_answers_it_after_the_commit()
    {
        var tree = Proc("site_cancel_finish");

        var block = SqlScripts.All<NamedTableReference>(tree).First(t => SqlScripts.NameOf(t.SchemaObject) == "site_cancels");
        Assert.Equal([TableHintKind.UpdLock, TableHintKind.HoldLock], block.TableHints.Select(h => h.HintKind));
        Assert.Contains(SqlScripts.All<PredicateSetStatement>(tree), s => s.Options.HasFlag(SetOptions.XactAbort) && s.IsOn);
        var commit = Assert.Single(SqlScripts.All<CommitTransactionStatement>(tree));
        var answer = SqlScripts.All<SelectStatement>(tree).Last();
        Assert.True(commit.StartOffset < answer.StartOffset, "the block's row is read after the commit");
        Assert.Equal("SET KEPT = @KEPT, FINISHED_AT = @NOW, PROGRESS_AT = @NOW",
            SqlScripts.Text(Assert.Single(SqlScripts.All<UpdateSpecification>(tree))).Split(" WHERE ")[0]["UPDATE DBO.SITE_CANCELS ".Length..]);
    }

    [Theory]
    [InlineData(2026, 11, 30, 780, 1020, "2026-11-30 13:00-17:00")]
    [InlineData(2026, 1, 5, 0, 1440, "2026-01-05 00:00-24:00")]
    [InlineData(2026, 12, 31, 485, 545, "2026-12-31 08:05-09:05")]
    public void The_trail_names_the_block_by_day_and_times(int year, int month, int day, int from, int to, string expected) =>
        Assert.Equal(expected, SqlServerStaffStore.Target(new DateOnly(year, month, day), from, to));
}
