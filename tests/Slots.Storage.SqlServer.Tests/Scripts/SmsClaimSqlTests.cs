using Microsoft.SqlServer.TransactSql.ScriptDom;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// The SMS outbox relay and claim on SQL Server as its parser reads them: dbo.sms_sent's claim
/// column (sql/031) and the procs SqlServerSmsStore calls (sql/111-116).
/// </summary>
public sealed class SmsClaimSqlTests
{
    /// <summary>The procs SqlServerSmsStore calls, one each per operation.</summary>
    public static readonly string[] SmsProcs = ["sms_read_unsent", "sms_mark_sent", "sms_was_sent", "sms_claim", "sms_release", "sms_record"];

    public static TheoryData<string> ProcNames() => [.. SmsProcs];

    private static CreateOrAlterProcedureStatement Proc(string name) =>
        Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(SqlScripts.Tree(SqlScripts.FileOf("proc", name))));

    [Theory]
    [MemberData(nameof(ProcNames))]
    public void Every_SMS_proc_parses_as_SQL_Server_2016_and_2022_T_SQL_interpreted_with_snapshot_hints_on_the_outbox(string name)
    {
        var file = SqlScripts.FileOf("proc", name);
        Assert.Empty(SqlScripts.Parse(file, new TSql130Parser(initialQuotedIdentifiers: true)).Errors);
        var proc = Proc(name);
        // OPENJSON and the disk table sms_sent have no native form: interpreted, as the waiting room's procs are.
        Assert.DoesNotContain(ProcedureOptionKind.NativeCompilation, proc.Options.Select(o => o.OptionKind));
        var hot = SqlScripts.All<NamedTableReference>(proc).Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject)));
        Assert.All(hot, t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
    }

    [Fact]
    public void The_relay_reads_unsent_outbox_rows_in_id_order_and_marks_only_unsent_ones()
    {
        var read = Assert.Single(SqlScripts.All<QuerySpecification>(Proc("sms_read_unsent")));
        Assert.Equal("WHERE SENT_AT IS NULL", SqlScripts.Text(read.WhereClause));
        Assert.Equal("ORDER BY SENT_AT, ID", SqlScripts.Text(read.OrderByClause));
        Assert.Equal("outbox", SqlScripts.NameOf(Assert.Single(SqlScripts.All<NamedTableReference>(read)).SchemaObject));

        var mark = Assert.Single(SqlScripts.All<UpdateSpecification>(Proc("sms_mark_sent")));
        Assert.EndsWith("AND SENT_AT IS NULL", SqlScripts.Text(mark.WhereClause), StringComparison.Ordinal);
    }

    [Fact]
    public void The_claim_column_is_added_once_to_the_disk_table()
    {
        var tree = SqlScripts.Tree("031_sms_sent_claim.sql");

        var guard = Assert.Single(SqlScripts.All<IfStatement>(tree));
        Assert.Equal("COL_LENGTH(N'DBO.SMS_SENT', N'CLAIM') IS NULL", SqlScripts.Text(guard.Predicate));
        var alter = Assert.IsType<AlterTableAddTableElementStatement>(guard.ThenStatement);
        Assert.Equal("claim", Assert.Single(alter.Definition.ColumnDefinitions).ColumnIdentifier.Value);
    }

    [Fact]
    public void A_claim_reads_the_row_under_an_update_lock_held_to_the_end_in_one_transaction()
    {
        var tree = Proc("sms_claim");

        Assert.Contains(SqlScripts.All<PredicateSetStatement>(tree), s => s.Options.HasFlag(SetOptions.XactAbort) && s.IsOn);
        Assert.Single(SqlScripts.All<BeginTransactionStatement>(tree));
        var read = SqlScripts.All<NamedTableReference>(tree).OrderBy(t => t.StartOffset).First();
        Assert.Equal([TableHintKind.UpdLock, TableHintKind.HoldLock], read.TableHints.Select(h => h.HintKind));
        // A claim that ran out is taken over; a record (status 1 or 2) never is.
        var takeOver = Assert.Single(SqlScripts.All<IfStatement>(tree), i => SqlScripts.Text(i.Predicate).Contains("@LEASE", StringComparison.Ordinal));
        Assert.Equal("@STATUS = 3 AND @AT <= @NOW - @LEASE", SqlScripts.Text(takeOver.Predicate));
    }

    [Fact]
    public void A_release_deletes_only_its_own_claim_and_a_record_replaces_only_a_claim()
    {
        var release = Assert.Single(SqlScripts.All<DeleteSpecification>(Proc("sms_release")));
        Assert.Equal("WHERE MESSAGE_ID = @ID AND STATUS = 3 AND CLAIM = @CLAIM", SqlScripts.Text(release.WhereClause));

        var record = Proc("sms_record");
        var replace = Assert.Single(SqlScripts.All<UpdateSpecification>(record));
        Assert.Equal("WHERE MESSAGE_ID = @ID AND STATUS = 3", SqlScripts.Text(replace.WhereClause));
        Assert.Single(SqlScripts.All<InsertSpecification>(record));
    }

    [Fact]
    public void A_send_counts_as_sent_only_once_recorded_not_while_claimed()
    {
        var find = Assert.Single(SqlScripts.All<QuerySpecification>(Proc("sms_was_sent")));
        Assert.Equal("WHERE MESSAGE_ID = @ID AND STATUS <> 3", SqlScripts.Text(find.WhereClause));
    }
}
