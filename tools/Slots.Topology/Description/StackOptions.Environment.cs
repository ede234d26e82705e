using System.Globalization;

namespace Slots.Topology;

public sealed partial record StackOptions
{
    /// <summary>The options from the SLOTS_* variables the scripts read, with the scripts' defaults, so every name
    /// keeps working. Finds the host facts too: the newest PostgreSQL binaries, and pgBackRest on PATH. Settings for
    /// the hosts and HAProxy (Slots__…, SLOTS_RATE_…) are not read here: a started process inherits its caller's
    /// environment, as under the scripts. Root's fallback postgres folder needs a look as the postgres user, so
    /// <see cref="PostgresFolder"/> is left to whoever starts the stack.</summary>
    public static StackOptions FromEnvironment(IReadOnlyDictionary<string, string?> env, string root)
    {
        string? Text(string name) => env.TryGetValue(name, out var value) && !string.IsNullOrEmpty(value) ? value : null;

        int Number(string name, int fallback)
        {
            var text = Text(name);
            if (text is null)
            {
                return fallback;
            }

            return int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var number)
                ? number
                : throw new ArgumentException($"{name} must be a whole number, not '{text}'.");
        }

        var front = Number("SLOTS_FRONT_PORT", PortPlan.Stack.Front);
        var redirect = Number("SLOTS_REDIRECT_PORT", PortPlan.Stack.Redirect);
        var stats = Number("SLOTS_STATS_PORT", PortPlan.Stack.Stats);
        var postgres = Number("SLOTS_PG_PORT", PortPlan.Stack.Postgres);
        var ports = PortPlan.Derive(
            front, redirect, stats, postgres,
            apiFirst: Number("SLOTS_API_FIRST_PORT", PortPlan.Stack.ApiFirst),
            schedulerFirst: Number("SLOTS_SCHEDULER_PORT", PortPlan.Stack.SchedulerFirst),
            amqp: Number("SLOTS_AMQP_PORT", PortPlan.Stack.Amqp),
            rabbitDist: Number("SLOTS_RABBIT_DIST_PORT", PortPlan.Stack.RabbitDist),
            rabbitMgmt: Number("SLOTS_RABBIT_MGMT_PORT", PortPlan.Stack.RabbitMgmt),
            epmd: Number("SLOTS_EPMD_PORT", PortPlan.Stack.Epmd),
            etcdFirst: Number("SLOTS_ETCD_FIRST_PORT", PortPlan.Stack.EtcdFirst),
            pgNodeFirst: Number("SLOTS_PG_NODE_FIRST_PORT", PortPlan.Stack.PgNodeFirst),
            patroniFirst: Number("SLOTS_PATRONI_FIRST_PORT", PortPlan.Stack.PatroniFirst),
            rabbitFirst: Number("SLOTS_RABBIT_FIRST_PORT", PortPlan.Stack.RabbitFirst),
            peerFirst: Number("SLOTS_PEER_FIRST_PORT", PortPlan.Stack.PeerFirst));
        ports = ports with
        {
            Front2 = Number("SLOTS_FRONT2_PORT", ports.Front2),
            Redirect2 = Number("SLOTS_REDIRECT2_PORT", ports.Redirect2),
            Stats2 = Number("SLOTS_STATS2_PORT", ports.Stats2),
            Postgres2 = Number("SLOTS_PG2_PORT", ports.Postgres2),
            AdminFirst = Number("SLOTS_HAPROXY_ADMIN_FIRST_PORT", ports.AdminFirst),
        };

        var profile = Text("ASPNETCORE_ENVIRONMENT") ?? nameof(AppProfile.Development);
        return new StackOptions
        {
            Root = root,
            StateDir = Text("SLOTS_STACK_DIR") ?? Path.Combine(root, ".stack"),
            Shape = Text("SLOTS_STACK_HA") == "1" ? Shape.Ha : Shape.Single,
            Apis = Number("SLOTS_API_COUNT", 2),
            Schedulers = Number("SLOTS_SCHEDULER_COUNT", 1),
            PgNodes = Number("SLOTS_PG_NODES", 3),
            Ports = ports,
            Configuration = Text("SLOTS_STACK_CONFIGURATION") ?? "Release",
            Build = Text("SLOTS_STACK_BUILD") != "0",
            Wait = TimeSpan.FromSeconds(Number("SLOTS_STACK_WAIT_S", 90)),
            App = !char.IsAsciiDigit(profile[0]) && Enum.TryParse<AppProfile>(profile, ignoreCase: false, out var app)
                ? app
                : throw new ArgumentException($"ASPNETCORE_ENVIRONMENT must be Development or Production for the stack, not '{profile}'."),
            TlsCert = Text("SLOTS_TLS_CERT"),
            PgBin = NewestPostgresBin() ?? "/usr/lib/postgresql/15/bin",
            Backup = OnPath("pgbackrest", Text("PATH")),
            BackupRepo = Text("SLOTS_BACKUP_REPO"),
            BackupStanza = Text("SLOTS_BACKUP_STANZA"),
            ArchiveTimeout = Text("SLOTS_ARCHIVE_TIMEOUT") ?? "30s",
            BackupRetentionFull = Number("SLOTS_BACKUP_RETENTION_FULL", 2),
            OutboxIdGap = long.TryParse(Text("SLOTS_OUTBOX_ID_GAP") ?? "1000000000", NumberStyles.None, CultureInfo.InvariantCulture, out var gap)
                ? gap
                : throw new ArgumentException("SLOTS_OUTBOX_ID_GAP must be a whole number."),
            RestoreNode = Text("SLOTS_RESTORE_NODE") ?? "pg1",
        };
    }

    /// <summary>The options from this process's environment, with <paramref name="overrides"/> on top (the chaos soak
    /// names the state folder it started).</summary>
    public static StackOptions FromProcessEnvironment(string root, params (string Name, string Value)[] overrides)
    {
        var env = Environment.GetEnvironmentVariables().Cast<System.Collections.DictionaryEntry>()
            .ToDictionary(e => (string)e.Key, e => (string?)e.Value, StringComparer.Ordinal);
        foreach (var (name, value) in overrides)
        {
            env[name] = value;
        }

        return FromEnvironment(env, root);
    }

    /// <summary>The newest /usr/lib/postgresql/VERSION/bin that holds initdb (the scripts' `ls -d … | sort -V | tail -n 1`).</summary>
    private static string? NewestPostgresBin()
    {
        const string Versions = "/usr/lib/postgresql";
        if (!Directory.Exists(Versions))
        {
            return null;
        }

        return Directory.GetDirectories(Versions)
            .Select(d => (Dir: Path.Combine(d, "bin"), Version: Version.TryParse(Path.GetFileName(d) + ".0", out var v) ? v : null))
            .Where(d => d.Version is not null && File.Exists(Path.Combine(d.Dir, "initdb")))
            .OrderBy(d => d.Version)
            .Select(d => d.Dir)
            .LastOrDefault();
    }

    private static bool OnPath(string program, string? path) =>
        (path ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries).Any(dir => File.Exists(Path.Combine(dir, program)));
}
