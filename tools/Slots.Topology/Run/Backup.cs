namespace Slots.Topology.Run;

/// <summary>pgBackRest on the HA stack, the part `up` does: its folders before any node starts, as their archive_command
/// writes there; the stanza once the cluster has a leader. Backups and restores: Stack.Backup.cs.</summary>
public static class Backup
{
    public static async Task PrepareAsync(StackOptions options)
    {
        string[] folders = [BackupSettings.Repo(options), BackupSettings.LogPath(options), BackupSettings.LockPath(options)];
        foreach (var folder in folders)
        {
            Directory.CreateDirectory(folder);
            await Postgres.ChownAsync(folder);
        }
    }

    /// <summary>stanza-create on the leading node (idempotent: a stanza that exists is checked, not made again).</summary>
    public static async Task CreateStanzaAsync(StackOptions options, string leader, Action<string> say)
    {
        if (!await RunLoggedAsync(options, BackupSettings.On(options, BackupSettings.NodeNumber(leader), "stanza-create"), TimeSpan.FromMinutes(2)))
        {
            throw new StackStartException($"pgbackrest: stanza-create failed; see {Log(options)}");
        }

        say($"  pgbackrest: stanza {BackupSettings.Stanza(options)}, repository {BackupSettings.Repo(options)}, "
            + $"WAL archived every {options.ArchiveTimeout} at the latest");
    }

    /// <summary>logs/pgbackrest.log: what every pgBackRest (and patronictl) call of the stack printed.</summary>
    public static string Log(StackOptions options) => Path.Combine(options.Logs, "pgbackrest.log");

    /// <summary>Runs a pgBackRest (or patronictl) call with its output appended to <see cref="Log"/>; whether it succeeded.</summary>
    public static async Task<bool> RunLoggedAsync(StackOptions options, Command command, TimeSpan limit)
    {
        var (code, stdout, stderr) = await Tool.TryRunAsync(command, limit);
        Directory.CreateDirectory(options.Logs);
        await File.AppendAllTextAsync(Log(options), stdout + stderr);
        return code == 0;
    }
}
