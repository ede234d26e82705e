namespace Slots.Topology.Tests.Description;

/// <summary>The files the description renders are the ones the scripts write today, byte for byte, but for the
/// changes named in <see cref="Golden"/>.</summary>
public sealed class RenderedFilesTests
{
    private const string PatroniScriptHeader =
        "# Written by scripts/stack-ha.sh; the reasons for each timing are in docs/reliability.md.";

    private const string PatroniHeader =
        "# Written by tools/Slots.Topology (PatroniSettings); the reasons for each timing are in docs/reliability.md.";

    [Fact]
    public void Patroni_yml_of_pg2_with_pgbackrest_is_the_scripts_with_ICU_initdb()
    {
        var expected = Golden.IcuInitDb(Golden.NewHeader(ScriptOutput.PatroniPg2WithBackup, PatroniScriptHeader, PatroniHeader));

        var rendered = PatroniSettings.Stack.Render(Golden.Options(Shape.Ha, backup: true), 2);

        Assert.Equal(expected, rendered);
    }

    [Fact]
    public void Patroni_yml_of_pg2_without_pgbackrest_keeps_the_scripts_blank_line()
    {
        var expected = Golden.IcuInitDb(Golden.NewHeader(ScriptOutput.PatroniPg2, PatroniScriptHeader, PatroniHeader));

        var rendered = PatroniSettings.Stack.Render(Golden.Options(Shape.Ha, backup: false), 2);

        Assert.Equal(expected, rendered);
        Assert.Contains("unix_socket_directories: /tmp/slots-stack-golden/postgres/pg2\n\ntags:\n", rendered, StringComparison.Ordinal);
    }

    [Fact]
    public void The_HA_shape_gives_each_patroni_node_its_rendered_yml_and_the_pgbackrest_conf_first()
    {
        var options = Golden.Options(Shape.Ha, backup: true);
        var topology = Topology.Describe(options);

        for (var n = 1; n <= 3; n++)
        {
            var files = topology[$"pg{n}"].Files;
            Assert.Equal(["/tmp/slots-stack-golden/postgres/pgbackrest.conf", $"/tmp/slots-stack-golden/postgres/pg{n}/patroni.yml"],
                files.Select(f => f.Path));
            Assert.Equal(PatroniSettings.Stack.Render(options, n), files[1].Content);
            Assert.All(files, f => Assert.True(f.PostgresOwned));
        }
    }

    [Fact]
    public void Pgbackrest_conf_is_the_scripts_but_for_its_header()
    {
        var expected = Golden.NewHeader(ScriptOutput.PgbackrestConf,
            "# Written by scripts/stack-backup.sh.", "# Written by tools/Slots.Topology (BackupSettings).");

        Assert.Equal(expected, BackupSettings.Render(Golden.Options(Shape.Ha, backup: true)));
    }

    [Fact]
    public void The_stanza_and_the_etcd_token_hash_the_state_folder_as_md5sum_does()
    {
        // slots-ea35cbb1 is what `printf '%s' /tmp/slots-stack-golden | md5sum | cut -c1-8` gave the scripts.
        var options = Golden.Options(Shape.Ha, backup: true);

        Assert.Equal("slots-ea35cbb1", BackupSettings.Stanza(options));
        Assert.Equal("slots-custom", BackupSettings.Stanza(options with { BackupStanza = "slots-custom" }));
        Assert.Equal("/var/tmp/slots-stack-postgres-ea35cbb1", PostgresSettings.FallbackFolder(ScriptOutput.State));
    }

    [Fact]
    public void Rabbitmq_conf_of_the_single_stack_is_the_scripts()
    {
        const string Script = """
            listeners.tcp.default = 127.0.0.1:56720
            management.tcp.ip = 127.0.0.1
            management.tcp.port = 56722

            """;

        var rabbit = Topology.Describe(Golden.Options())["rabbitmq"];

        Assert.Equal(Script, RabbitConfig.RenderSingle(Golden.Options()));
        Assert.Equal(
            [("/tmp/slots-stack-golden/rabbitmq/rabbitmq.conf", Script), ("/tmp/slots-stack-golden/rabbitmq/enabled_plugins", "[rabbitmq_management].\n")],
            rabbit.Files.Select(f => (f.Path, f.Content)));
    }

    [Fact]
    public void Rabbitmq_conf_of_HA_nodes_1_and_2_is_the_scripts_with_pause_minority()
    {
        var options = Golden.Options(Shape.Ha);

        Assert.Equal(Golden.PauseMinority(ScriptOutput.RabbitHa1Conf), RabbitConfig.RenderHa(options, 1));
        Assert.Equal(Golden.PauseMinority(ScriptOutput.RabbitHa2Conf), RabbitConfig.RenderHa(options, 2));
    }

    [Fact]
    public void HA_rabbit_nodes_get_their_plugins_an_empty_env_file_and_one_cookie_kept_once_written()
    {
        var topology = Topology.Describe(Golden.Options(Shape.Ha));

        var node1 = topology["rabbitmq1"].Files;
        var node2 = topology["rabbitmq2"].Files;

        Assert.Equal("[rabbitmq_management].\n", node1.Single(f => f.Path.EndsWith("/node1/enabled_plugins", StringComparison.Ordinal)).Content);
        Assert.Equal("[].\n", node2.Single(f => f.Path.EndsWith("/node2/enabled_plugins", StringComparison.Ordinal)).Content);
        Assert.Equal("", node2.Single(f => f.Path == "/tmp/slots-stack-golden/rabbitmq-ha/empty.env").Content);
        var cookie = node2.Single(f => f.Path == "/tmp/slots-stack-golden/rabbitmq-ha/.erlang.cookie");
        Assert.Matches("^[0-9a-f]{20}$", cookie.Content);
        Assert.Equal(UnixFileMode.UserRead, cookie.Mode);
        Assert.True(cookie.KeepIfExists);
        Assert.Equal(cookie, topology["rabbitmq1"].Files.Single(f => f.Path == cookie.Path));
        Assert.Equal(cookie, topology["rabbitmq3"].Files.Single(f => f.Path == cookie.Path));
    }
}
