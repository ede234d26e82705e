using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>Which scripts the migrator runs on a database that has seen some of them: procs follow their files, tables run once.</summary>
public sealed class MigrationPlanTests
{
    private static readonly (string Version, string Text)[] Scripts =
    [
        ("003_table_slots.sql", "CREATE TABLE dbo.slots (id int);"),
        ("015_proc_cancel.sql", "CREATE OR ALTER PROCEDURE dbo.cancel AS RETURN 1;"),
        ("019_proc_load_hot_days.sql", "CREATE OR ALTER PROCEDURE dbo.load_hot_days AS RETURN 1;"),
        ("063_proc_cancel.sql", "CREATE OR ALTER PROCEDURE dbo.cancel AS RETURN 2;"),
    ];

    private static Dictionary<string, string?> AllRecorded() =>
        SqlServerMigrator.Plan(Scripts, new Dictionary<string, string?>()).ToDictionary(s => s.Version, s => (string?)s.Checksum);

    [Fact]
    public void A_new_database_runs_every_script_in_order()
    {
        var plan = SqlServerMigrator.Plan(Scripts, new Dictionary<string, string?>());

        Assert.Equal(Scripts.Select(s => s.Version), plan.Where(s => s.Run).Select(s => s.Version));
    }

    [Fact]
    public void Nothing_runs_when_every_script_is_as_recorded()
    {
        Assert.Empty(SqlServerMigrator.Plan(Scripts, AllRecorded()));
    }

    [Fact]
    public void A_changed_proc_script_runs_again_with_every_proc_script_after_it_so_the_last_definition_wins()
    {
        var changed = Scripts.Select(s => s.Version == "019_proc_load_hot_days.sql" ? (s.Version, s.Text + " -- closed slots") : s).ToArray();

        var plan = SqlServerMigrator.Plan(changed, AllRecorded());

        Assert.Equal(["019_proc_load_hot_days.sql", "063_proc_cancel.sql"], plan.Where(s => s.Run).Select(s => s.Version));
    }

    [Fact]
    public void A_changed_table_script_does_not_run_again_and_only_its_record_is_updated()
    {
        var changed = Scripts.Select(s => s.Version == "003_table_slots.sql" ? (s.Version, s.Text + " -- comment") : s).ToArray();

        var step = Assert.Single(SqlServerMigrator.Plan(changed, AllRecorded()));

        Assert.Equal("003_table_slots.sql", step.Version);
        Assert.False(step.Run);
    }

    [Fact]
    public void A_database_migrated_before_checksums_runs_its_procs_again_once_in_order()
    {
        var old = AllRecorded().ToDictionary(r => r.Key, _ => (string?)null);

        var plan = SqlServerMigrator.Plan(Scripts, old);

        Assert.Equal(["015_proc_cancel.sql", "019_proc_load_hot_days.sql", "063_proc_cancel.sql"], plan.Where(s => s.Run).Select(s => s.Version));
        Assert.False(plan.Single(s => s.Version == "003_table_slots.sql").Run);
        Assert.Empty(SqlServerMigrator.Plan(Scripts, plan.ToDictionary(s => s.Version, s => (string?)s.Checksum)));
    }

    [Fact]
    public void A_new_schema_script_runs_before_the_proc_scripts_that_run_again_so_they_compile_against_it()
    {
        var grown = Scripts.Select(s => s.Version == "015_proc_cancel.sql" ? (s.Version, s.Text + " -- reads hold") : s)
            .Append(("100_alter_slots.sql", "ALTER TABLE dbo.slots ADD hold smallint NULL;")).ToArray();

        var plan = SqlServerMigrator.Plan(grown, AllRecorded());

        Assert.Equal(["100_alter_slots.sql", "015_proc_cancel.sql", "019_proc_load_hot_days.sql", "063_proc_cancel.sql"],
            plan.Where(s => s.Run).Select(s => s.Version));
    }
}
