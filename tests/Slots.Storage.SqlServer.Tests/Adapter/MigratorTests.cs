using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Storage.SqlServer;
using Slots.Storage.SqlServer.Tests.Scripts;

namespace Slots.Storage.SqlServer.Tests.Adapter;

public sealed class MigratorTests
{
    [Fact]
    public void Every_sql_file_is_embedded_in_deploy_order()
    {
        var embedded = SqlServerMigrator.Scripts().Select(s => s.Version).ToList();

        Assert.Equal(SqlScripts.Files().Select(Path.GetFileName), embedded);
        Assert.Equal(embedded.Order(StringComparer.Ordinal), embedded);
    }

    [Fact]
    public void Embedded_scripts_are_the_files_on_disk() =>
        Assert.All(SqlServerMigrator.Scripts(), s => Assert.Equal(SqlScripts.Read(s.Version), s.Text));

    public static TheoryData<string> OwnBatches() => ["lock", "read", "record", "create_database"];

    [Theory]
    [MemberData(nameof(OwnBatches))]
    public void The_migrator_s_own_batches_are_the_files_of_sql_migrator_and_parse_as_SQL_Server_2016_and_2022_T_SQL(string name)
    {
        var text = SqlServerMigrator.Own(name);

        Assert.Equal(File.ReadAllText(Path.Combine(SqlScripts.Folder, "migrator", name + ".sql")), text);
        foreach (TSqlParser parser in new TSqlParser[] { new TSql130Parser(true), new TSql160Parser(true) })
        {
            using var reader = new StringReader(text);
            parser.Parse(reader, out var errors);
            Assert.Empty(errors.Select(e => $"{e.Line}:{e.Column} {e.Message}"));
        }
        // Not a numbered script: the migrator runs these itself, before any of those.
        Assert.DoesNotContain(SqlServerMigrator.Scripts(), s => s.Text == text);
    }

    [Fact]
    public void The_migrator_takes_its_lock_before_it_creates_its_bookkeeping_and_only_when_missing()
    {
        var tree = Parse(SqlServerMigrator.Own("lock"));
        var statements = ((TSqlScript)tree).Batches.Single().Statements;

        var take = Assert.IsType<ExecuteStatement>(statements[1]);
        Assert.Contains("SYS.SP_GETAPPLOCK", SqlScripts.Text(take), StringComparison.Ordinal);
        Assert.Contains("@LOCKOWNER = N'SESSION'", SqlScripts.Text(take), StringComparison.Ordinal);
        var guard = Assert.IsType<IfStatement>(statements[3]);
        Assert.Equal("OBJECT_ID(N'DBO.SCHEMA_MIGRATIONS', N'U') IS NULL", SqlScripts.Text(guard.Predicate));
        Assert.IsType<CreateTableStatement>(guard.ThenStatement);
    }

    [Fact]
    public void The_migrator_creates_only_a_missing_database_under_its_quoted_name()
    {
        var guard = Assert.Single(SqlScripts.All<IfStatement>(Parse(SqlServerMigrator.Own("create_database"))));

        Assert.Equal("DB_ID(@NAME) IS NULL", SqlScripts.Text(guard.Predicate));
        Assert.Contains("QUOTENAME(@NAME)", SqlScripts.Text(guard.ThenStatement), StringComparison.Ordinal);
    }

    private static TSqlFragment Parse(string text)
    {
        using var reader = new StringReader(text);
        var tree = new TSql160Parser(true).Parse(reader, out var errors);
        Assert.Empty(errors);
        return tree;
    }

    [Fact]
    public void Scripts_split_on_GO_lines_only()
    {
        const string script = "CREATE TABLE a (go int);\nGO\n  go  -- second\nSELECT 'GO';\r\nGO\r\n\nGO\n";

        var batches = SqlServerMigrator.SplitBatches(script);

        Assert.Equal(["CREATE TABLE a (go int);", "SELECT 'GO';"], batches);
    }

    [Fact]
    public void Every_proc_is_its_own_batch()
    {
        // CREATE PROCEDURE must be the only statement of its batch.
        foreach (var text in SqlServerMigrator.Scripts().Where(s => s.Version.Contains("_proc_", StringComparison.Ordinal)).Select(s => s.Text))
        {
            var batch = Assert.Single(SqlServerMigrator.SplitBatches(text));
            Assert.Contains("CREATE OR ALTER PROCEDURE", batch, StringComparison.Ordinal);
            Assert.DoesNotContain("\nGO", batch, StringComparison.OrdinalIgnoreCase);
        }
    }
}
