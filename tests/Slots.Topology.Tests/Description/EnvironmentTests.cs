namespace Slots.Topology.Tests.Description;

/// <summary>The environments and command lines the description gives each process are the scripts'.</summary>
public sealed class EnvironmentTests
{
    [Fact]
    public void HAProxy_of_the_single_stack_gets_the_scripts_variables_in_their_order()
    {
        var haproxy = Topology.Describe(Golden.Options())["haproxy"].Start!;

        Assert.Equal(ScriptOutput.HaproxySingleEnv, Golden.Pairs(HaproxyEnvironment.OfSingle(Golden.Options())));
        Assert.Equal(ScriptOutput.HaproxySingleEnv, Golden.Pairs(haproxy.Env));
        Assert.Equal("haproxy", haproxy.File);
        Assert.Equal(["-W", "-f", "haproxy/haproxy.cfg"], haproxy.Args);
        Assert.Equal("/repo", haproxy.WorkDir);
    }

    [Fact]
    public void HAProxy_node_2_of_the_HA_stack_gets_the_scripts_variables_in_their_order()
    {
        var haproxy2 = Topology.Describe(Golden.Options(Shape.Ha))["haproxy2"].Start!;

        Assert.Equal(ScriptOutput.HaproxyHa2Env, Golden.Pairs(haproxy2.Env));
        Assert.Equal(["-W", "-L", "haproxy2", "-f", "haproxy/haproxy.cfg"], haproxy2.Args);
    }

    [Fact]
    public void A_certificate_of_ones_own_drops_the_local_CA_job_and_its_revocation_list()
    {
        var options = Golden.Options() with { TlsCert = "/etc/ssl/slots.pem" };

        var topology = Topology.Describe(options);
        var env = topology["haproxy"].Start!.EffectiveEnv();

        Assert.Equal("/etc/ssl/slots.pem", env["SLOTS_TLS_CERT"]);
        Assert.False(env.ContainsKey("SLOTS_TLS_CRL"));
        Assert.DoesNotContain(topology.Nodes, n => n.Name == "tls");
        Assert.DoesNotContain(topology["haproxy"].After, d => d.Node == "tls");
        Assert.Null(topology.Endpoints.CaPath);
    }

    [Fact]
    public void Proxy_settings_come_after_the_stacks_own_variables()
    {
        var options = Golden.Options() with
        {
            ProxySettings = new Dictionary<string, string> { ["SLOTS_RATE_WRITES"] = "100000", ["SLOTS_RATE_READS"] = "100000" },
        };

        var pairs = Golden.Pairs(HaproxyEnvironment.OfSingle(options));

        Assert.Equal([.. ScriptOutput.HaproxySingleEnv, "SLOTS_RATE_READS=100000", "SLOTS_RATE_WRITES=100000"], pairs);
    }

    [Fact]
    public void Every_host_of_the_single_stack_starts_from_the_scripts_APP_ENV()
    {
        Assert.Equal(ScriptOutput.AppSingleEnv, Golden.Pairs(AppEnvironment.Common(Golden.Options())));
    }

    [Fact]
    public void Api2_of_the_HA_stack_sees_the_environment_and_command_the_script_gives_it()
    {
        var api2 = Topology.Describe(Golden.Options(Shape.Ha))["api2"].Start!;

        Assert.Equal(Golden.EnvOf(ScriptOutput.ApiHa2Args), api2.EffectiveEnv());
        Assert.Equal(Golden.ProgramOf(ScriptOutput.ApiHa2Args), api2.Args.Prepend(api2.File));
        Assert.Equal("/repo/api/Slots.Api", api2.WorkDir);
    }

    [Fact]
    public void Scheduler2_of_the_HA_stack_sees_the_environment_and_command_the_script_gives_it()
    {
        var options = Golden.Options(Shape.Ha) with { Schedulers = 2 };

        var scheduler2 = Topology.Describe(options)["scheduler2"].Start!;

        Assert.Equal(Golden.EnvOf(ScriptOutput.SchedulerHa2Args), scheduler2.EffectiveEnv());
        Assert.Equal(Golden.ProgramOf(ScriptOutput.SchedulerHa2Args), scheduler2.Args.Prepend(scheduler2.File));
        Assert.Equal("/repo/scheduler/Slots.Scheduler", scheduler2.WorkDir);
    }

    [Fact]
    public void App_settings_reach_every_host_last_with_colons_written_as_double_underscores()
    {
        var options = Golden.Options() with
        {
            AppSettings = new Dictionary<string, string> { ["Slots:Sms:MaxTries"] = "8" },
        };
        var topology = Topology.Describe(options);

        Assert.Equal(new KeyValuePair<string, string>("Slots__Sms__MaxTries", "8"), topology["api1"].Start!.Env[^1]);
        Assert.Equal(new KeyValuePair<string, string>("Slots__Sms__MaxTries", "8"), topology["scheduler"].Start!.Env[^1]);
    }

    [Fact]
    public void RabbitMQ_of_the_single_stack_gets_the_scripts_RABBIT_ENV()
    {
        var rabbit = Topology.Describe(Golden.Options())["rabbitmq"].Start!;

        Assert.Equal(ScriptOutput.RabbitSingleEnv, Golden.Pairs(rabbit.Env));
        Assert.Equal("/usr/lib/rabbitmq/bin/rabbitmq-server", rabbit.File);
    }

    [Fact]
    public void RabbitMQ_node_2_of_the_HA_stack_gets_the_scripts_environment()
    {
        var rabbit2 = Topology.Describe(Golden.Options(Shape.Ha))["rabbitmq2"].Start!;

        Assert.Equal(ScriptOutput.RabbitHa2Env, Golden.Pairs(rabbit2.Env));
    }

    [Fact]
    public void Etcd2_starts_with_the_scripts_command_line()
    {
        var etcd2 = Topology.Describe(Golden.Options(Shape.Ha))["etcd2"].Start!;

        Assert.Equal(ScriptOutput.EtcdArgs2, etcd2.Args.Prepend(etcd2.File));
    }

    [Fact]
    public void PostgreSQL_of_the_single_stack_starts_as_the_script_starts_it_and_initdb_uses_ICU()
    {
        var postgres = Topology.Describe(Golden.Options())["postgres"];
        const string Folder = "/tmp/slots-stack-golden/postgres";

        Assert.Equal(
            ["/usr/lib/postgresql/15/bin/pg_ctl", "-D", $"{Folder}/data", "-l", $"{Folder}/server.log", "-w", "-t", "90", "start",
                "-o", $"-c listen_addresses=127.0.0.1 -p 55432 -c unix_socket_directories={Folder}/sock -c max_connections=300"],
            postgres.Start!.Args.Prepend(postgres.Start.File));
        Assert.Equal(RunAs.Postgres, postgres.Start.RunAs);
        // The script's initdb, with decision 1's ICU options after its own.
        Assert.Equal(
            ["/usr/lib/postgresql/15/bin/initdb", "-D", $"{Folder}/data", "-U", "postgres", "--auth=trust", "--encoding=UTF8",
                "--locale=C.UTF-8", "--locale-provider=icu", "--icu-locale=und"],
            postgres.Init!.Args.Prepend(postgres.Init.File));
        Assert.Equal($"{Folder}/data", postgres.DataDir);
    }

    [Fact]
    public void The_endpoints_are_the_ones_the_scripts_print_and_the_chaos_soak_uses()
    {
        var single = Topology.Describe(Golden.Options()).Endpoints;
        var ha = Topology.Describe(Golden.Options(Shape.Ha)).Endpoints;

        Assert.Equal([new Uri("https://127.0.0.1:8443/")], single.Fronts);
        Assert.Equal("Host=127.0.0.1;Port=55432;Database=slots;Username=postgres", single.Database);
        Assert.Equal("amqp://guest:guest@127.0.0.1:56720/", single.Amqp);
        Assert.Equal("/tmp/slots-stack-golden/tls/ca.crt", single.CaPath);
        Assert.Equal([new Uri("https://127.0.0.1:8443/"), new Uri("https://127.0.0.1:8444/")], ha.Fronts);
        Assert.Equal("Host=127.0.0.1:55432,127.0.0.1:55433;Host Recheck Seconds=1;Database=slots;Username=postgres", ha.Database);
    }
}
