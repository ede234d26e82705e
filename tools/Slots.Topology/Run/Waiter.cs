using System.Globalization;

namespace Slots.Topology.Run;

/// <summary>Waits for a part to become healthy, polling every half second as the scripts did (faster polling
/// steals CPU from what is being waited for on a 2-core machine). Gives up at once when the part's process has
/// exited, naming it and its log with the log's last lines: a Patroni or etcd that cannot start says why there.</summary>
public static class Waiter
{
    public static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(500);

    public const int TailLines = 15;

    /// <param name="running">Whether the part's process still runs; null for a part with no process of its own
    /// (pg_ctl's server, a gate).</param>
    public static async Task WaitAsync(
        string part, Func<CancellationToken, Task<bool>> healthy, Func<bool>? running, string log, string logs,
        TimeSpan wait, CancellationToken ct)
    {
        var deadline = DateTime.UtcNow + wait;
        while (!await healthy(ct))
        {
            if (running is not null && !running())
            {
                throw new StackStartException(Exited(part, log));
            }

            if (DateTime.UtcNow >= deadline)
            {
                throw new StackStartException(NotHealthy(part, wait, logs));
            }

            await Task.Delay(Poll, ct);
        }
    }

    public static string Exited(string part, string log)
    {
        var lines = Tail(log, TailLines).Select(line => "    " + line);
        return $"{part} exited while starting; its log is {log}. Last lines:\n{string.Join('\n', lines)}";
    }

    public static string NotHealthy(string part, TimeSpan wait, string logs) =>
        string.Create(CultureInfo.InvariantCulture, $"{part}: not healthy after {(int)wait.TotalSeconds}s; see {logs}/");

    /// <summary>The last <paramref name="count"/> lines of a log that another process may still be writing.</summary>
    public static IReadOnlyList<string> Tail(string path, int count)
    {
        try
        {
            using var reader = new StreamReader(new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite));
            var lines = reader.ReadToEnd().Split('\n');
            var end = lines.Length > 0 && lines[^1].Length == 0 ? lines.Length - 1 : lines.Length;
            return lines[Math.Max(0, end - count)..end];
        }
        catch (IOException)
        {
            return [];
        }
        catch (UnauthorizedAccessException)
        {
            return [];
        }
    }
}
