using Slots.SqlServer.Tests.Scripts;
using Slots.Storage.SqlServer;

namespace Slots.SqlServer.Tests.Adapter;

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
