using System.Reflection;
using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Storage.SqlServer;

namespace Slots.SqlServer.Tests.Scripts;

/// <summary>The SMS claim on SQL Server as its parser reads it: dbo.sms_sent's claim column (sql/031) and the store's statements.</summary>
public sealed class SmsClaimSqlTests
{
    public static TheoryData<string> StatementNames() =>
        [.. typeof(SqlServerSmsStore.Sql).GetFields(BindingFlags.Public | BindingFlags.Static).Select(f => f.Name)];

    private static string Statement(string name) =>
        (string)typeof(SqlServerSmsStore.Sql).GetField(name, BindingFlags.Public | BindingFlags.Static)!.GetValue(null)!;

    private static TSqlFragment Parse(string sql, TSqlParser parser)
    {
        using var reader = new StringReader(sql);
        var tree = parser.Parse(reader, out var errors);
        Assert.Empty(errors.Select(e => $"{e.Line}:{e.Column} {e.Message}"));
        return tree;
    }

    [Theory]
    [MemberData(nameof(StatementNames))]
    public void Every_claim_statement_parses_as_SQL_Server_2016_and_2022_T_SQL(string name)
    {
        Parse(Statement(name), new TSql130Parser(initialQuotedIdentifiers: true));
        Parse(Statement(name), new TSql160Parser(initialQuotedIdentifiers: true));
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
        var tree = Parse(SqlServerSmsStore.Sql.Claim, new TSql160Parser(initialQuotedIdentifiers: true));

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
        var release = Assert.Single(SqlScripts.All<DeleteSpecification>(Parse(SqlServerSmsStore.Sql.Release, new TSql160Parser(true))));
        Assert.Equal("WHERE MESSAGE_ID = @ID AND STATUS = 3 AND CLAIM = @CLAIM", SqlScripts.Text(release.WhereClause));

        var record = Parse(SqlServerSmsStore.Sql.Record, new TSql160Parser(true));
        var replace = Assert.Single(SqlScripts.All<UpdateSpecification>(record));
        Assert.Equal("WHERE MESSAGE_ID = @ID AND STATUS = 3", SqlScripts.Text(replace.WhereClause));
        Assert.Single(SqlScripts.All<InsertSpecification>(record));
    }
}
