using System.Globalization;

namespace Slots.Topology;

/// <summary>pgBackRest on the HA stack (backup and restore: Run/Stack.Backup.cs): one configuration every call reads; each node's
/// own data folder goes on the command line, so each archives its own WAL and a backup reads the primary's.</summary>
public static class BackupSettings
{
    public static string Repo(StackOptions options) => options.BackupRepo ?? Path.Combine(options.PgFolder, "backup");

    public static string Stanza(StackOptions options) => options.BackupStanza ?? $"slots-{StateHash.Of(options.StateDir)}";

    public static string ConfigPath(StackOptions options) => Path.Combine(options.PgFolder, "pgbackrest.conf");

    public static string LogPath(StackOptions options) => Path.Combine(options.PgFolder, "pgbackrest-log");

    public static string LockPath(StackOptions options) => Path.Combine(options.PgFolder, "pgbackrest-lock");

    /// <summary>pgbackrest.conf, as backup_write_config writes it.</summary>
    public static string Render(StackOptions options) => string.Create(CultureInfo.InvariantCulture, $"""
        # Written by tools/Slots.Topology (BackupSettings).
        [global]
        repo1-path={Repo(options)}
        repo1-retention-full={options.BackupRetentionFull}
        log-path={LogPath(options)}
        lock-path={LockPath(options)}
        log-level-console=warn
        log-level-file=info
        compress-type=lz4
        process-max=2
        start-fast=y
        archive-timeout=60

        """);

    public static ConfigFile File(StackOptions options) => new(ConfigPath(options), Render(options), PostgresOwned: true);

    /// <summary>Node n's archive_command, for its patroni.yml.</summary>
    public static string ArchiveCommand(StackOptions options, int n) =>
        $"pgbackrest --config={ConfigPath(options)} --stanza={Stanza(options)} --pg1-path={PatroniSettings.NodeFolder(options, n)}/data archive-push %p";

    /// <summary>pgbackrest as the postgres user against node n's data folder and server (stanza-create, backup,
    /// restore are run on whichever node leads when they run).</summary>
    public static Command On(StackOptions options, int n, params string[] args)
    {
        var dir = PatroniSettings.NodeFolder(options, n);
        return OnRepository(options, [$"--pg1-path={dir}/data", $"--pg1-port={options.Ports.PgNode(n)}", $"--pg1-socket-path={dir}", .. args]);
    }

    /// <summary>pgbackrest as the postgres user on the repository alone (info; a restore names its own pg1-path).</summary>
    public static Command OnRepository(StackOptions options, params string[] args) => new(
        "pgbackrest", [$"--config={ConfigPath(options)}", $"--stanza={Stanza(options)}", .. args], [], RunAs: RunAs.Postgres);

    /// <summary>The number of a Patroni node from its name (pg2 → 2).</summary>
    public static int NodeNumber(string name) => int.Parse(name.AsSpan(2), NumberStyles.None, CultureInfo.InvariantCulture);
}
