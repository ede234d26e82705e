using System.Reflection;
using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Storage.SqlServer;

namespace Slots.SqlServer.Tests.Scripts;

/// <summary>The per-code guessing limit on SQL Server as its parser reads it: dbo.wrong_proofs (sql/090) and the store's statements.</summary>
public sealed class WrongProofSqlTests
{
    public static TheoryData<string> StatementNames() =>
        [.. typeof(SqlServerWrongProofStore.Sql).GetFields(BindingFlags.Public | BindingFlags.Static).Select(f => f.Name)];

    private static string Statement(string name) =>
        (string)typeof(SqlServerWrongProofStore.Sql).GetField(name, BindingFlags.Public | BindingFlags.Static)!.GetValue(null)!;

    [Theory]
    [MemberData(nameof(StatementNames))]
    public void Every_statement_parses_as_SQL_Server_2016_and_2022_T_SQL(string name)
    {
        foreach (TSqlParser parser in new TSqlParser[] { new TSql130Parser(initialQuotedIdentifiers: true), new TSql160Parser(initialQuotedIdentifiers: true) })
        {
            using var reader = new StringReader(Statement(name));
            parser.Parse(reader, out var errors);
            Assert.Empty(errors.Select(e => $"{e.Line}:{e.Column} {e.Message}"));
        }
    }

    [Fact]
    public void Wrong_proofs_are_a_disk_table_counted_by_code_and_forgotten_by_age()
    {
        var table = Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", "wrong_proofs"))));

        Assert.Empty(table.Options.OfType<MemoryOptimizedTableOption>());
        var byCode = Assert.Single(table.Definition.Indexes, i => i.Name.Value == "ix_wrong_proofs_code");
        Assert.Equal(["code", "at"], byCode.Columns.Select(c => c.Column.MultiPartIdentifier.Identifiers[^1].Value));
        Assert.Contains(table.Definition.Indexes, i => i.Name.Value == "ix_wrong_proofs_at");
    }
}
