using System.Globalization;

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
        var n = int.Parse(leader.AsSpan(2), NumberStyles.None, CultureInfo.InvariantCulture);
        var (code, stdout, stderr) = await Tool.TryRunAsync(BackupSettings.On(options, n, "stanza-create"), TimeSpan.FromMinutes(2));
        var log = Path.Combine(options.Logs, "pgbackrest.log");
        await File.AppendAllTextAsync(log, stdout + stderr);
        if (code != 0)
        {
            throw new StackStartException($"pgbackrest: stanza-create failed; see {log}");
        }

        say($"  pgbackrest: stanza {BackupSettings.Stanza(options)}, repository {BackupSettings.Repo(options)}, "
            + $"WAL archived every {options.ArchiveTimeout} at the latest");
    }
}
