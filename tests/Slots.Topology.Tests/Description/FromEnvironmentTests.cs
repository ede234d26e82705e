namespace Slots.Topology.Tests.Description;

/// <summary>Every SLOTS_* name the scripts read keeps working through StackOptions.FromEnvironment.</summary>
public sealed class FromEnvironmentTests
{
    private static StackOptions Read(params (string Key, string? Value)[] variables) =>
        StackOptions.FromEnvironment(variables.ToDictionary(v => v.Key, v => v.Value), "/repo");

    [Fact]
    public void With_nothing_set_the_options_are_the_scripts_defaults()
    {
        var options = Read(("PATH", ""));

        Assert.Equal(PortPlan.Stack, options.Ports);
        Assert.Equal("/repo/.stack", options.StateDir);
        Assert.Equal((Shape.Single, 2, 1, 3), (options.Shape, options.Apis, options.Schedulers, options.PgNodes));
        Assert.Equal(("Release", true, TimeSpan.FromSeconds(90)), (options.Configuration, options.Build, options.Wait));
        Assert.Equal(AppProfile.Development, options.App);
        Assert.Null(options.TlsCert);
        Assert.False(options.Backup);
        Assert.Equal(("30s", 2), (options.ArchiveTimeout, options.BackupRetentionFull));
    }

    [Fact]
    public void Chaos_sh_exports_for_the_HA_soak_give_the_chaos_port_plan()
    {
        var options = Read(
            ("SLOTS_STACK_DIR", "/repo/.stack-chaos-ha"), ("SLOTS_STACK_HA", "1"),
            ("SLOTS_FRONT_PORT", "8180"), ("SLOTS_STATS_PORT", "8504"), ("SLOTS_REDIRECT_PORT", "8190"),
            ("SLOTS_PG_PORT", "25532"), ("SLOTS_API_FIRST_PORT", "5111"), ("SLOTS_SCHEDULER_PORT", "5189"),
            ("SLOTS_AMQP_PORT", "26730"), ("SLOTS_RABBIT_DIST_PORT", "26731"), ("SLOTS_RABBIT_MGMT_PORT", "26732"),
            ("SLOTS_EPMD_PORT", "26733"), ("SLOTS_ETCD_FIRST_PORT", "26900"), ("SLOTS_PG_NODE_FIRST_PORT", "25541"),
            ("SLOTS_PATRONI_FIRST_PORT", "28108"), ("SLOTS_RABBIT_FIRST_PORT", "26840"), ("SLOTS_PEER_FIRST_PORT", "26890"),
            ("SLOTS_API_COUNT", "2"), ("SLOTS_SCHEDULER_COUNT", "2"),
            ("SLOTS_STACK_CONFIGURATION", "Debug"), ("SLOTS_STACK_BUILD", "0"));

        Assert.Equal(PortPlan.Chaos, options.Ports);
        Assert.Equal((Shape.Ha, "/repo/.stack-chaos-ha", 2), (options.Shape, options.StateDir, options.Schedulers));
        Assert.Equal(("Debug", false), (options.Configuration, options.Build));
    }

    [Fact]
    public void The_second_HAProxy_nodes_ports_can_be_set_apart_from_the_first()
    {
        var options = Read(("SLOTS_FRONT_PORT", "9443"), ("SLOTS_STATS2_PORT", "9999"), ("SLOTS_HAPROXY_ADMIN_FIRST_PORT", "7000"));

        Assert.Equal((9443, 9444, 9999, 7000), (options.Ports.Front, options.Ports.Front2, options.Ports.Stats2, options.Ports.AdminFirst));
    }

    [Fact]
    public void The_backup_and_certificate_settings_are_read()
    {
        var options = Read(
            ("SLOTS_TLS_CERT", "/etc/ssl/slots.pem"), ("SLOTS_BACKUP_REPO", "/backups"), ("SLOTS_BACKUP_STANZA", "slots-x"),
            ("SLOTS_ARCHIVE_TIMEOUT", "10s"), ("SLOTS_BACKUP_RETENTION_FULL", "4"), ("SLOTS_STACK_WAIT_S", "120"));

        Assert.Equal(("/etc/ssl/slots.pem", "/backups", "slots-x", "10s", 4), (options.TlsCert, options.BackupRepo, options.BackupStanza, options.ArchiveTimeout, options.BackupRetentionFull));
        Assert.Equal(TimeSpan.FromSeconds(120), options.Wait);
    }

    [Fact]
    public void Pgbackrest_on_PATH_turns_WAL_archiving_on()
    {
        var bin = Directory.CreateTempSubdirectory("slots-topology-path-");
        try
        {
            File.WriteAllText(Path.Combine(bin.FullName, "pgbackrest"), "");

            Assert.True(Read(("PATH", $"/nonexistent:{bin.FullName}")).Backup);
            Assert.False(Read(("PATH", "/nonexistent")).Backup);
        }
        finally
        {
            bin.Delete(recursive: true);
        }
    }

    [Theory]
    [InlineData("SLOTS_API_COUNT", "two", "SLOTS_API_COUNT must be a whole number, not 'two'.")]
    [InlineData("SLOTS_FRONT_PORT", "-1", "SLOTS_FRONT_PORT must be a whole number, not '-1'.")]
    [InlineData("ASPNETCORE_ENVIRONMENT", "1", "ASPNETCORE_ENVIRONMENT must be Development or Production for the stack, not '1'.")]
    [InlineData("ASPNETCORE_ENVIRONMENT", "Staging", "ASPNETCORE_ENVIRONMENT must be Development or Production for the stack, not 'Staging'.")]
    public void A_value_that_cannot_be_read_is_refused_naming_the_variable(string name, string value, string message)
    {
        var error = Assert.Throws<ArgumentException>(() => Read((name, value)));

        Assert.Equal(message, error.Message);
    }
}
