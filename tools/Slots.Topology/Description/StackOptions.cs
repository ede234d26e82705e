namespace Slots.Topology;

/// <summary>Every knob the stack scripts read, with the scripts' defaults. Host facts that the description
/// cannot find out itself without I/O (the PostgreSQL binaries, whether pgBackRest is installed, where the
/// postgres user can keep its data) are inputs too; <see cref="FromEnvironment"/> finds them.</summary>
public sealed partial record StackOptions
{
    /// <summary>The repository root: haproxy/haproxy.cfg, scripts/tls.sh, the hosts' project folders and artifacts/.</summary>
    public required string Root { get; init; }

    /// <summary>Data, logs and PIDs (SLOTS_STACK_DIR; .stack by default).</summary>
    public required string StateDir { get; init; }

    public Shape Shape { get; init; } = Shape.Single;

    /// <summary>API instances, 1..4 (SLOTS_API_COUNT): haproxy.cfg names SLOTS_API_1 .. SLOTS_API_4.</summary>
    public int Apis { get; init; } = 2;

    /// <summary>Clustered scheduler nodes, 1..2 (SLOTS_SCHEDULER_COUNT): scheduler, scheduler2.</summary>
    public int Schedulers { get; init; } = 1;

    /// <summary>Patroni-managed PostgreSQL nodes on the HA stack, 2..3 (SLOTS_PG_NODES).</summary>
    public int PgNodes { get; init; } = 3;

    public PortPlan Ports { get; init; } = PortPlan.Stack;

    /// <summary>The build configuration whose artifacts run (SLOTS_STACK_CONFIGURATION).</summary>
    public string Configuration { get; init; } = "Release";

    /// <summary>Whether `up` builds first (SLOTS_STACK_BUILD; 0 for the chaos soak's restarts).</summary>
    public bool Build { get; init; } = true;

    /// <summary>How long `up` waits for each part to become healthy (SLOTS_STACK_WAIT_S).</summary>
    public TimeSpan Wait { get; init; } = TimeSpan.FromSeconds(90);

    /// <summary>ASPNETCORE_ENVIRONMENT and DOTNET_ENVIRONMENT of the hosts.</summary>
    public AppProfile App { get; init; } = AppProfile.Development;

    /// <summary>Extra host settings as configuration keys ("Slots:RateLimits:WritesPerWindow"), given to every
    /// API and scheduler after the stack's own.</summary>
    public IReadOnlyDictionary<string, string> AppSettings { get; init; } = new Dictionary<string, string>();

    /// <summary>Extra haproxy.cfg variables (SLOTS_RATE_WRITES …), given to every HAProxy node after the stack's own.</summary>
    public IReadOnlyDictionary<string, string> ProxySettings { get; init; } = new Dictionary<string, string>();

    /// <summary>A certificate of one's own for HAProxy (SLOTS_TLS_CERT); null: the local CA's in STATE/tls.</summary>
    public string? TlsCert { get; init; }

    /// <summary>The PostgreSQL server binaries (the newest /usr/lib/postgresql/*/bin).</summary>
    public string PgBin { get; init; } = "/usr/lib/postgresql/15/bin";

    /// <summary>Where PostgreSQL's folders live; null: STATE/postgres. Root whose state folder the postgres user
    /// cannot reach uses <see cref="PostgresSettings.FallbackFolder"/>.</summary>
    public string? PostgresFolder { get; init; }

    /// <summary>pgBackRest is installed: the HA nodes archive their WAL.</summary>
    public bool Backup { get; init; }

    /// <summary>The pgBackRest repository (SLOTS_BACKUP_REPO); null: PGFOLDER/backup.</summary>
    public string? BackupRepo { get; init; }

    /// <summary>The stanza (SLOTS_BACKUP_STANZA); null: slots-&lt;hash of the state folder&gt;, one per stack.</summary>
    public string? BackupStanza { get; init; }

    /// <summary>archive_timeout (SLOTS_ARCHIVE_TIMEOUT): the RPO bound when every node is lost.</summary>
    public string ArchiveTimeout { get; init; } = "30s";

    /// <summary>repo1-retention-full (SLOTS_BACKUP_RETENTION_FULL).</summary>
    public int BackupRetentionFull { get; init; } = 2;

    /// <summary>Outbox ids a restore skips (SLOTS_OUTBOX_ID_GAP), so that no message id used after the restore point
    /// is handed out again: the SMS gateway keeps the ids it has sent and would drop a new message under an old one.</summary>
    public long OutboxIdGap { get; init; } = 1_000_000_000;

    /// <summary>The node a restore puts the data back on when none leads (SLOTS_RESTORE_NODE).</summary>
    public string RestoreNode { get; init; } = "pg1";

    public string Logs => Path.Combine(StateDir, "logs");

    public string Pids => Path.Combine(StateDir, "pids");

    public string Tls => Path.Combine(StateDir, "tls");

    public string PgFolder => PostgresFolder ?? Path.Combine(StateDir, "postgres");

    /// <summary>The certificate HAProxy serves.</summary>
    public string ServedCert => TlsCert ?? Path.Combine(Tls, "server.pem");

    /// <summary>Throws with the scripts' own messages when a count is out of range.</summary>
    public void Validate()
    {
        if (Schedulers is < 1 or > 2)
        {
            throw new ArgumentException("SLOTS_SCHEDULER_COUNT must be 1..2.");
        }

        if (Apis is < 1 or > 4)
        {
            throw new ArgumentException("SLOTS_API_COUNT must be 1..4 (haproxy.cfg names SLOTS_API_1 .. SLOTS_API_4).");
        }

        if (Shape == Shape.Ha && PgNodes is < 2 or > 3)
        {
            throw new ArgumentException("SLOTS_PG_NODES must be 2..3.");
        }
    }
}
