using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Storage.SqlServer;

namespace Slots.SqlServer.Tests.Scripts;

/// <summary>Day-before reminders on SQL Server as its parser reads them: the table's key, and the one batch that queues them.</summary>
public sealed class ReminderSqlTests
{
    private static TSqlFragment Parse(string sql, TSqlParser parser)
    {
        using var reader = new StringReader(sql);
        var tree = parser.Parse(reader, out var errors);
        Assert.Empty(errors.Select(e => $"{e.Line}:{e.Column} {e.Message}"));
        return tree;
    }

    [Fact]
    public void A_booking_is_reminded_once_per_start_it_holds()
    {
        var table = Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", "reminders"))));
        var key = Assert.Single(table.Definition.TableConstraints.OfType<UniqueConstraintDefinition>(), c => c.IsPrimaryKey);
        Assert.Equal(["code", "starts_at"], key.Columns.Select(c => c.Column.MultiPartIdentifier.Identifiers[^1].Value));
    }

    [Fact]
    public void The_queue_batch_parses_as_SQL_Server_2016_and_2022_and_reads_the_hot_tables_with_snapshot()
    {
        Parse(SqlServerReminderStore.Sql.Queue, new TSql130Parser(initialQuotedIdentifiers: true));
        var tree = Parse(SqlServerReminderStore.Sql.Queue, new TSql160Parser(initialQuotedIdentifiers: true));
        var hot = SqlScripts.All<NamedTableReference>(tree).Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject))).ToList();
        Assert.NotEmpty(hot);
        Assert.All(hot, t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
    }

    [Fact]
    public void Forgetting_past_days_parses_and_reads_the_day_index()
    {
        Parse(SqlServerReminderStore.Sql.ForgetBefore, new TSql130Parser(initialQuotedIdentifiers: true));
        var table = Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", "reminders"))));
        Assert.Contains(table.Definition.Indexes, i => i.Name.Value == "ix_reminders_day");
    }

    [Fact]
    public void The_record_and_its_sms_are_one_transaction_in_that_order()
    {
        var tree = Parse(SqlServerReminderStore.Sql.Queue, new TSql160Parser(initialQuotedIdentifiers: true));
        var inserts = SqlScripts.All<InsertStatement>(tree)
            .Select(i => SqlScripts.NameOf(((NamedTableReference)i.InsertSpecification.Target).SchemaObject)).ToList();
        Assert.Equal(["reminders", "outbox"], inserts);
        Assert.Single(SqlScripts.All<BeginTransactionStatement>(tree));
        Assert.Single(SqlScripts.All<CommitTransactionStatement>(tree));
    }
}
