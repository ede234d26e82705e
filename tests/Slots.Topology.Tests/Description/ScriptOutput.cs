namespace Slots.Topology.Tests.Description;

/// <summary>
/// What scripts/stack.sh, stack-ha.sh and stack-backup.sh wrote and passed before tools/Slots.Stack replaced them
/// (git history before 1a95d7d), captured from the scripts' own functions (patroni_config, backup_write_config, haproxy_env, haproxy_node_env, APP_ENV, api_up, scheduler_up,
/// RABBIT_ENV, rabbit_env_of, rabbit_node_up, etcd_up) with SLOTS_STACK_DIR=/tmp/slots-stack-golden, the postgres
/// folder inside it, PostgreSQL 15's binaries and the repository at /repo. The golden tests hold the description
/// to these, naming each change the lead decided on where there is one.
/// </summary>
internal static class ScriptOutput
{
    public const string State = "/tmp/slots-stack-golden";

    /// <summary>patroni.yml of pg2 with pgBackRest installed.</summary>
    public const string PatroniPg2WithBackup = """
        # Written by scripts/stack-ha.sh; the reasons for each timing are in docs/reliability.md.
        scope: slots
        namespace: /slots-stack/
        name: pg2
        log:
          level: INFO
        restapi:
          listen: 127.0.0.1:28009
          connect_address: 127.0.0.1:28009
        etcd3:
          hosts: 127.0.0.1:26800,127.0.0.1:26802,127.0.0.1:26804
        bootstrap:
          dcs:
            ttl: 9
            loop_wait: 1
            retry_timeout: 4
            primary_start_timeout: 0
            maximum_lag_on_failover: 1048576
            synchronous_mode: true
            synchronous_mode_strict: false
            synchronous_node_count: 1
            postgresql:
              use_pg_rewind: true
              use_slots: true
              parameters:
                max_connections: 300
                wal_level: replica
                hot_standby: "on"
                wal_log_hints: "on"
                max_wal_senders: 10
                max_replication_slots: 10
                wal_keep_size: 256MB
                synchronous_commit: "on"
          initdb:
            - encoding: UTF8
            - locale: C.UTF-8
          pg_hba:
            - local all all trust
            - host all all 127.0.0.1/32 trust
            - host replication all 127.0.0.1/32 trust
        postgresql:
          listen: 127.0.0.1:25442
          connect_address: 127.0.0.1:25442
          data_dir: /tmp/slots-stack-golden/postgres/pg2/data
          bin_dir: /usr/lib/postgresql/15/bin
          pgpass: /tmp/slots-stack-golden/postgres/pg2/pgpass
          authentication:
            superuser: {username: postgres, password: postgres}
            replication: {username: replicator, password: replicator}
            rewind: {username: postgres, password: postgres}
          parameters:
            unix_socket_directories: /tmp/slots-stack-golden/postgres/pg2
            archive_mode: "on"
            archive_command: 'pgbackrest --config=/tmp/slots-stack-golden/postgres/pgbackrest.conf --stanza=slots-ea35cbb1 --pg1-path=/tmp/slots-stack-golden/postgres/pg2/data archive-push %p'
            archive_timeout: 30s
        tags:
          nofailover: false
          noloadbalance: false
        """ + "\n";

    /// <summary>patroni.yml of pg2 without pgBackRest: the empty substitution leaves a blank line.</summary>
    public const string PatroniPg2 = """
        # Written by scripts/stack-ha.sh; the reasons for each timing are in docs/reliability.md.
        scope: slots
        namespace: /slots-stack/
        name: pg2
        log:
          level: INFO
        restapi:
          listen: 127.0.0.1:28009
          connect_address: 127.0.0.1:28009
        etcd3:
          hosts: 127.0.0.1:26800,127.0.0.1:26802,127.0.0.1:26804
        bootstrap:
          dcs:
            ttl: 9
            loop_wait: 1
            retry_timeout: 4
            primary_start_timeout: 0
            maximum_lag_on_failover: 1048576
            synchronous_mode: true
            synchronous_mode_strict: false
            synchronous_node_count: 1
            postgresql:
              use_pg_rewind: true
              use_slots: true
              parameters:
                max_connections: 300
                wal_level: replica
                hot_standby: "on"
                wal_log_hints: "on"
                max_wal_senders: 10
                max_replication_slots: 10
                wal_keep_size: 256MB
                synchronous_commit: "on"
          initdb:
            - encoding: UTF8
            - locale: C.UTF-8
          pg_hba:
            - local all all trust
            - host all all 127.0.0.1/32 trust
            - host replication all 127.0.0.1/32 trust
        postgresql:
          listen: 127.0.0.1:25442
          connect_address: 127.0.0.1:25442
          data_dir: /tmp/slots-stack-golden/postgres/pg2/data
          bin_dir: /usr/lib/postgresql/15/bin
          pgpass: /tmp/slots-stack-golden/postgres/pg2/pgpass
          authentication:
            superuser: {username: postgres, password: postgres}
            replication: {username: replicator, password: replicator}
            rewind: {username: postgres, password: postgres}
          parameters:
            unix_socket_directories: /tmp/slots-stack-golden/postgres/pg2

        tags:
          nofailover: false
          noloadbalance: false
        """ + "\n";

    /// <summary>pgbackrest.conf.</summary>
    public const string PgbackrestConf = """
        # Written by scripts/stack-backup.sh.
        [global]
        repo1-path=/tmp/slots-stack-golden/postgres/backup
        repo1-retention-full=2
        log-path=/tmp/slots-stack-golden/postgres/pgbackrest-log
        lock-path=/tmp/slots-stack-golden/postgres/pgbackrest-lock
        log-level-console=warn
        log-level-file=info
        compress-type=lz4
        process-max=2
        start-fast=y
        archive-timeout=60
        """ + "\n";

    /// <summary>rabbitmq.conf of HA node 1.</summary>
    public const string RabbitHa1Conf = """
        listeners.tcp.default = 127.0.0.1:26740
        cluster_formation.peer_discovery_backend = classic_config
        cluster_formation.classic_config.nodes.1 = slots-ha-1@localhost
        cluster_formation.classic_config.nodes.2 = slots-ha-2@localhost
        cluster_formation.classic_config.nodes.3 = slots-ha-3@localhost
        management.tcp.ip = 127.0.0.1
        management.tcp.port = 26742
        """ + "\n";

    /// <summary>rabbitmq.conf of HA node 2.</summary>
    public const string RabbitHa2Conf = """
        listeners.tcp.default = 127.0.0.1:26750
        cluster_formation.peer_discovery_backend = classic_config
        cluster_formation.classic_config.nodes.1 = slots-ha-1@localhost
        cluster_formation.classic_config.nodes.2 = slots-ha-2@localhost
        cluster_formation.classic_config.nodes.3 = slots-ha-3@localhost
        """ + "\n";

    /// <summary>HAPROXY_ENV of the single stack (haproxy_env).</summary>
    public static readonly string[] HaproxySingleEnv =
    [
        "SLOTS_FRONT_BIND=127.0.0.1:8443",
        "SLOTS_STATS_BIND=127.0.0.1:8404",
        "SLOTS_TLS_CERT=/tmp/slots-stack-golden/tls/server.pem",
        "SLOTS_REDIRECT_BIND=127.0.0.1:8080",
        "SLOTS_HTTPS_PORT=8443",
        "SLOTS_TLS_CRL=/tmp/slots-stack-golden/tls/ca.crl",
        "SLOTS_API_1=127.0.0.1:5101",
        "SLOTS_API_1_AGENT=5151",
        "SLOTS_API_2=127.0.0.1:5102",
        "SLOTS_API_2_AGENT=5152",
    ];

    /// <summary>HAPROXY_ENV of haproxy2 (haproxy_node_env 2).</summary>
    public static readonly string[] HaproxyHa2Env =
    [
        "SLOTS_FRONT_BIND=127.0.0.1:8444",
        "SLOTS_STATS_BIND=127.0.0.1:8405",
        "SLOTS_PEER_1=127.0.0.1:26790",
        "SLOTS_PEER_2=127.0.0.1:26791",
        "SLOTS_ADMIN_SOCKET=ipv4@127.0.0.1:8407",
        "SLOTS_PG_BIND=127.0.0.1:55433",
        "SLOTS_TLS_CERT=/tmp/slots-stack-golden/tls/server.pem",
        "SLOTS_REDIRECT_BIND=127.0.0.1:8081",
        "SLOTS_HTTPS_PORT=8444",
        "SLOTS_TLS_CRL=/tmp/slots-stack-golden/tls/ca.crl",
        "SLOTS_API_1=127.0.0.1:5101",
        "SLOTS_API_1_AGENT=5151",
        "SLOTS_API_2=127.0.0.1:5102",
        "SLOTS_API_2_AGENT=5152",
        "SLOTS_PG_1=127.0.0.1:25441",
        "SLOTS_PG_CHECK_1=28008",
        "SLOTS_PG_2=127.0.0.1:25442",
        "SLOTS_PG_CHECK_2=28009",
        "SLOTS_PG_3=127.0.0.1:25443",
        "SLOTS_PG_CHECK_3=28010",
    ];

    /// <summary>RABBIT_ENV of the single stack.</summary>
    public static readonly string[] RabbitSingleEnv =
    [
        "HOME=/tmp/slots-stack-golden/rabbitmq",
        "RABBITMQ_NODENAME=slots-stack@localhost",
        "RABBITMQ_NODE_IP_ADDRESS=127.0.0.1",
        "RABBITMQ_NODE_PORT=56720",
        "RABBITMQ_DIST_PORT=56721",
        "ERL_EPMD_PORT=56723",
        "ERL_EPMD_ADDRESS=127.0.0.1",
        "RABBITMQ_MNESIA_BASE=/tmp/slots-stack-golden/rabbitmq/mnesia",
        "RABBITMQ_LOG_BASE=/tmp/slots-stack-golden/logs/rabbitmq",
        "RABBITMQ_CONFIG_FILE=/tmp/slots-stack-golden/rabbitmq/rabbitmq.conf",
        "RABBITMQ_ENABLED_PLUGINS_FILE=/tmp/slots-stack-golden/rabbitmq/enabled_plugins",
    ];

    /// <summary>RABBIT_NODE_ENV of HA node 2 (rabbit_env_of 2).</summary>
    public static readonly string[] RabbitHa2Env =
    [
        "HOME=/tmp/slots-stack-golden/rabbitmq-ha",
        "RABBITMQ_NODENAME=slots-ha-2@localhost",
        "RABBITMQ_NODE_IP_ADDRESS=127.0.0.1",
        "RABBITMQ_NODE_PORT=26750",
        "RABBITMQ_DIST_PORT=26751",
        "ERL_EPMD_PORT=56723",
        "ERL_EPMD_ADDRESS=127.0.0.1",
        "RABBITMQ_CTL_DIST_PORT_MIN=26753",
        "RABBITMQ_CTL_DIST_PORT_MAX=26759",
        "RABBITMQ_CONF_ENV_FILE=/tmp/slots-stack-golden/rabbitmq-ha/empty.env",
        "RABBITMQ_MNESIA_BASE=/tmp/slots-stack-golden/rabbitmq-ha/node2/mnesia",
        "RABBITMQ_LOG_BASE=/tmp/slots-stack-golden/logs/rabbitmq2",
        "RABBITMQ_CONFIG_FILE=/tmp/slots-stack-golden/rabbitmq-ha/node2/rabbitmq.conf",
        "RABBITMQ_ENABLED_PLUGINS_FILE=/tmp/slots-stack-golden/rabbitmq-ha/node2/enabled_plugins",
    ];

    /// <summary>etcd2's command line (etcd_up 2).</summary>
    public static readonly string[] EtcdArgs2 =
    [
        "etcd",
        "--name",
        "etcd2",
        "--data-dir",
        "/tmp/slots-stack-golden/etcd/etcd2",
        "--listen-client-urls",
        "http://127.0.0.1:26802",
        "--advertise-client-urls",
        "http://127.0.0.1:26802",
        "--listen-peer-urls",
        "http://127.0.0.1:26803",
        "--initial-advertise-peer-urls",
        "http://127.0.0.1:26803",
        "--initial-cluster",
        "etcd1=http://127.0.0.1:26801,etcd2=http://127.0.0.1:26803,etcd3=http://127.0.0.1:26805",
        "--initial-cluster-state",
        "new",
        "--initial-cluster-token",
        "slots-ea35cbb1",
        "--heartbeat-interval",
        "200",
        "--election-timeout",
        "2000",
        "--logger",
        "zap",
    ];

    /// <summary>What api_up 2 hands to spawn on the HA stack: env, its assignments in order, then the command.</summary>
    public static readonly string[] ApiHa2Args =
    [
        "env",
        "ASPNETCORE_ENVIRONMENT=Development",
        "DOTNET_ENVIRONMENT=Development",
        "DOTNET_NOLOGO=1",
        "Slots__Storage__Provider=Postgres",
        "ConnectionStrings__Slots=Host=127.0.0.1;Port=55432;Database=slots;Username=postgres",
        "ConnectionStrings__RabbitMq=amqp://guest:guest@127.0.0.1:56720/",
        "Slots__TrustedProxies__0=127.0.0.1",
        "Logging__Console__FormatterName=simple",
        "Logging__Console__FormatterOptions__UseUtcTimestamp=true",
        "Logging__Console__FormatterOptions__TimestampFormat=yyyy-MM-ddTHH:mm:ss.fffZ ",
        "ConnectionStrings__Slots=Host=127.0.0.1:55432,127.0.0.1:55433;Host Recheck Seconds=1;Database=slots;Username=postgres",
        "ConnectionStrings__RabbitMq=amqp://guest:guest@127.0.0.1:26740/,amqp://guest:guest@127.0.0.1:26750/,amqp://guest:guest@127.0.0.1:26760/",
        "ASPNETCORE_URLS=http://127.0.0.1:5102",
        "Slots__ConcurrencyLimit__Agent=127.0.0.1:5152",
        "ConnectionStrings__Slots=Host=127.0.0.1:55432,127.0.0.1:55433;Host Recheck Seconds=1;Database=slots;Username=postgres;Application Name=api2",
        "dotnet",
        "exec",
        "/repo/artifacts/bin/Slots.Api/release/Slots.Api.dll",
    ];

    /// <summary>What scheduler_up 2 hands to spawn on the HA stack.</summary>
    public static readonly string[] SchedulerHa2Args =
    [
        "env",
        "ASPNETCORE_ENVIRONMENT=Development",
        "DOTNET_ENVIRONMENT=Development",
        "DOTNET_NOLOGO=1",
        "Slots__Storage__Provider=Postgres",
        "ConnectionStrings__Slots=Host=127.0.0.1;Port=55432;Database=slots;Username=postgres",
        "ConnectionStrings__RabbitMq=amqp://guest:guest@127.0.0.1:56720/",
        "Slots__TrustedProxies__0=127.0.0.1",
        "Logging__Console__FormatterName=simple",
        "Logging__Console__FormatterOptions__UseUtcTimestamp=true",
        "Logging__Console__FormatterOptions__TimestampFormat=yyyy-MM-ddTHH:mm:ss.fffZ ",
        "ConnectionStrings__Slots=Host=127.0.0.1:55432,127.0.0.1:55433;Host Recheck Seconds=1;Database=slots;Username=postgres",
        "ConnectionStrings__RabbitMq=amqp://guest:guest@127.0.0.1:26740/,amqp://guest:guest@127.0.0.1:26750/,amqp://guest:guest@127.0.0.1:26760/",
        "ASPNETCORE_URLS=http://127.0.0.1:5200",
        "Slots__Scheduler__InstanceId=scheduler2",
        "Slots__Sms__File__Path=/tmp/slots-stack-golden/sms/scheduler2.jsonl",
        "ConnectionStrings__Slots=Host=127.0.0.1:55432,127.0.0.1:55433;Host Recheck Seconds=1;Database=slots;Username=postgres;Application Name=scheduler2",
        "dotnet",
        "exec",
        "/repo/artifacts/bin/Slots.Scheduler/release/Slots.Scheduler.dll",
    ];

    /// <summary>APP_ENV of the single stack.</summary>
    public static readonly string[] AppSingleEnv =
    [
        "ASPNETCORE_ENVIRONMENT=Development",
        "DOTNET_ENVIRONMENT=Development",
        "DOTNET_NOLOGO=1",
        "Slots__Storage__Provider=Postgres",
        "ConnectionStrings__Slots=Host=127.0.0.1;Port=55432;Database=slots;Username=postgres",
        "ConnectionStrings__RabbitMq=amqp://guest:guest@127.0.0.1:56720/",
        "Slots__TrustedProxies__0=127.0.0.1",
        "Logging__Console__FormatterName=simple",
        "Logging__Console__FormatterOptions__UseUtcTimestamp=true",
        "Logging__Console__FormatterOptions__TimestampFormat=yyyy-MM-ddTHH:mm:ss.fffZ ",
    ];
}
