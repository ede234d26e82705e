namespace Slots.Topology;

/// <summary>The single stack's PostgreSQL: initdb once, then pg_ctl as the postgres user.</summary>
public static class PostgresSettings
{
    /// <summary>The stack's one durable server: room for N instances' pools and the scheduler's.</summary>
    public const int MaxConnections = 300;

    /// <summary>initdb's options, for pg_ctl's server and for every Patroni node's bootstrap alike. ICU's root
    /// collation (as the test fixtures' servers have it), so lower() and ordering agree with .NET's.</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> InitDb { get; } =
    [
        new("encoding", "UTF8"),
        new("locale", "C.UTF-8"),
        new("locale-provider", "icu"),
        new("icu-locale", "und"),
    ];

    /// <summary>Root's fallback when the postgres user cannot traverse the state folder (a private home).</summary>
    public static string FallbackFolder(string stateDir) => $"/var/tmp/slots-stack-postgres-{StateHash.Of(stateDir)}";

    public static Node Node(StackOptions options)
    {
        var folder = options.PgFolder;
        var data = Path.Combine(folder, "data");
        var port = options.Ports.Postgres;
        var wait = ((int)options.Wait.TotalSeconds).ToString(System.Globalization.CultureInfo.InvariantCulture);
        string[] initArgs = ["-D", data, "-U", "postgres", "--auth=trust", .. InitDb.Select(o => $"--{o.Key}={o.Value}")];
        return new Node(
            "postgres",
            NodeKind.Postgres,
            new Command(
                Path.Combine(options.PgBin, "pg_ctl"),
                ["-D", data, "-l", Path.Combine(folder, "server.log"), "-w", "-t", wait, "start", "-o",
                    $"-c listen_addresses=127.0.0.1 -p {port} -c unix_socket_directories={Path.Combine(folder, "sock")} -c max_connections={MaxConnections}"],
                [],
                RunAs: RunAs.Postgres),
            [new Port("postgres", port)],
            [],
            [],
            new Health.PostgresAccepts(port),
            StopStyle.PgCtlFast,
            new PidSource.Postmaster(data),
            data,
            new Command(Path.Combine(options.PgBin, "initdb"), initArgs, [], RunAs: RunAs.Postgres));
    }

    /// <summary>The job that creates the slots database when it is missing, through the given port.</summary>
    public static Node CreateDatabase(int port, IReadOnlyList<Dependency> after) =>
        new(
            "create-db",
            NodeKind.Job,
            new Command(
                "/bin/sh",
                "-c",
                $"psql -h 127.0.0.1 -p {port} -U postgres -tAc \"SELECT 1 FROM pg_database WHERE datname = 'slots'\" | grep -q 1 " +
                $"|| psql -h 127.0.0.1 -p {port} -U postgres -qc \"CREATE DATABASE slots\" >/dev/null"),
            [],
            [],
            after,
            new Health.Done(),
            StopStyle.Nothing,
            new PidSource.None());
}
