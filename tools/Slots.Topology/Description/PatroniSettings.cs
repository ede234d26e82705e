using System.Globalization;
using System.Text;

namespace Slots.Topology;

/// <summary>Patroni's cluster-wide settings (bootstrap.dcs) and each node's patroni.yml. Why each timing is what it
/// is: docs/reliability.md. The invariant Patroni needs: loop_wait + 2 × retry_timeout ≤ ttl.</summary>
public sealed record PatroniSettings(
    int Ttl = 9,
    int LoopWait = 1,
    int RetryTimeout = 4,
    int PrimaryStartTimeout = 0,
    long MaximumLagOnFailover = 1_048_576,
    bool SynchronousMode = true,
    bool Strict = false,
    int SyncNodeCount = 1)
{
    public static PatroniSettings Stack { get; } = new();

    /// <summary>bootstrap.dcs.postgresql.parameters, in patroni.yml's order and spelling.</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> Parameters { get; } =
    [
        new("max_connections", PostgresSettings.MaxConnections.ToString(CultureInfo.InvariantCulture)),
        new("wal_level", "replica"),
        new("hot_standby", "\"on\""),
        new("wal_log_hints", "\"on\""),
        new("max_wal_senders", "10"),
        new("max_replication_slots", "10"),
        new("wal_keep_size", "256MB"),
        new("synchronous_commit", "\"on\""),
    ];

    /// <summary>Patroni demotes a leader that cannot reach the DCS within ttl; it must have tried twice by then.</summary>
    public bool Consistent => LoopWait + (2 * RetryTimeout) <= Ttl;

    /// <summary>Node n's folder: patroni.yml, pgpass, the socket and data/.</summary>
    public static string NodeFolder(StackOptions options, int n) => Path.Combine(options.PgFolder, $"pg{n}");

    /// <summary>Node n's patroni.yml (the archive lines only when pgBackRest is installed; a blank line in their place
    /// otherwise, as the retired script's empty substitution left it, so that the golden file still holds).</summary>
    public string Render(StackOptions options, int n)
    {
        var ports = options.Ports;
        var dir = NodeFolder(options, n);
        var etcd = string.Join(",", Enumerable.Range(1, 3).Select(m => $"127.0.0.1:{ports.EtcdClient(m)}"));
        var text = new StringBuilder();
        text.Append(CultureInfo.InvariantCulture, $"""
            # Written by tools/Slots.Topology (PatroniSettings); the reasons for each timing are in docs/reliability.md.
            scope: slots
            namespace: /slots-stack/
            name: pg{n}
            log:
              level: INFO
            restapi:
              listen: 127.0.0.1:{ports.Patroni(n)}
              connect_address: 127.0.0.1:{ports.Patroni(n)}
            etcd3:
              hosts: {etcd}
            bootstrap:
              dcs:
                ttl: {Ttl}
                loop_wait: {LoopWait}
                retry_timeout: {RetryTimeout}
                primary_start_timeout: {PrimaryStartTimeout}
                maximum_lag_on_failover: {MaximumLagOnFailover}
                synchronous_mode: {Yaml(SynchronousMode)}
                synchronous_mode_strict: {Yaml(Strict)}
                synchronous_node_count: {SyncNodeCount}
                postgresql:
                  use_pg_rewind: true
                  use_slots: true
                  parameters:

            """);
        foreach (var (key, value) in Parameters)
        {
            text.Append(CultureInfo.InvariantCulture, $"        {key}: {value}\n");
        }

        text.Append("  initdb:\n");
        foreach (var (key, value) in PostgresSettings.InitDb)
        {
            text.Append(CultureInfo.InvariantCulture, $"    - {key}: {value}\n");
        }

        text.Append(CultureInfo.InvariantCulture, $"""
              pg_hba:
                - local all all trust
                - host all all 127.0.0.1/32 trust
                - host replication all 127.0.0.1/32 trust
            postgresql:
              listen: 127.0.0.1:{ports.PgNode(n)}
              connect_address: 127.0.0.1:{ports.PgNode(n)}
              data_dir: {dir}/data
              bin_dir: {options.PgBin}
              pgpass: {dir}/pgpass
              authentication:
                superuser: {"{"}username: postgres, password: postgres{"}"}
                replication: {"{"}username: replicator, password: replicator{"}"}
                rewind: {"{"}username: postgres, password: postgres{"}"}
              parameters:
                unix_socket_directories: {dir}

            """);
        if (options.Backup)
        {
            text.Append("    archive_mode: \"on\"\n");
            text.Append(CultureInfo.InvariantCulture, $"    archive_command: '{BackupSettings.ArchiveCommand(options, n)}'\n");
            text.Append(CultureInfo.InvariantCulture, $"    archive_timeout: {options.ArchiveTimeout}\n");
        }
        else
        {
            text.Append('\n');
        }

        text.Append("""
            tags:
              nofailover: false
              noloadbalance: false

            """);
        return text.ToString();
    }

    private static string Yaml(bool value) => value ? "true" : "false";
}
