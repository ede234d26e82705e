using System.Globalization;

namespace Slots.LoadTest.Reporting;

/// <summary>
/// A watched process during a run: its resident memory (VmRSS, sampled) and the CPU it and its
/// children used (utime + stime from /proc, in seconds and as a share of one core). The children
/// matter for PostgreSQL, whose work is done by one backend process per connection.
/// </summary>
public sealed record ProcessStats(string Role, int Pid, string Name, double MaxRssMb, double AvgRssMb, int Samples, double CpuSeconds, double CpuCoreShare)
{
    /// <summary>
    /// The figures of one process over <paramref name="seconds"/>: the CPU to the kernel's tick (0.01 s) and its share of a
    /// core to four places, not rounded further here. Figures taken as differences (the finder's polling above idle, 0.005 to
    /// 0.02 cores) would otherwise move in steps of a whole 0.01 core.
    /// </summary>
    public static ProcessStats Of(string role, int pid, string name, IReadOnlyCollection<double> rssMb, double cpuSeconds, double seconds) =>
        new(role, pid, name,
            rssMb.Count == 0 ? 0 : Math.Round(rssMb.Max(), 1),
            rssMb.Count == 0 ? 0 : Math.Round(rssMb.Average(), 1),
            rssMb.Count, Math.Round(cpuSeconds, 2), Math.Round(cpuSeconds / seconds, 4));
}

public static class ProcessCpu
{
    /// <summary>CPU of the watched API processes per answer, in µs; null when none was watched or nothing answered.</summary>
    public static double? ApiMicrosPerAnswer(IReadOnlyList<ProcessStats> processes, long answers) =>
        processes.Where(p => p.Role == "api").ToList() is { Count: > 0 } api && answers > 0
            ? Math.Round(api.Sum(p => p.CpuSeconds) * 1e6 / answers, 1)
            : null;
}

/// <summary>Samples the API processes (and the database server, and this generator) twice a second during a run.</summary>
public sealed class ProcessSampler(IReadOnlyList<(string Role, int Pid)> watched) : IAsyncDisposable
{
    private const double TicksPerSecond = 100; // USER_HZ on Linux

    private readonly CancellationTokenSource _stop = new();
    private readonly List<int> _pids = watched.Select(w => w.Pid).Distinct().ToList();
    private readonly Dictionary<int, List<double>> _rss = watched.Select(w => w.Pid).Distinct().ToDictionary(p => p, _ => new List<double>());
    private readonly Dictionary<int, Dictionary<int, (long First, long Last)>> _cpu = watched.Select(w => w.Pid).Distinct().ToDictionary(p => p, _ => new Dictionary<int, (long, long)>());
    private readonly DateTime _started = DateTime.UtcNow;
    private Task? _loop;

    public void Start()
    {
        Sample();
        _loop = _pids.Count == 0 ? Task.CompletedTask : Task.Run(LoopAsync);
    }

    private async Task LoopAsync()
    {
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(500));
        try
        {
            while (await timer.WaitForNextTickAsync(_stop.Token))
            {
                Sample();
            }
        }
        catch (OperationCanceledException)
        {
            // stopped
        }
    }

    private void Sample()
    {
        var children = Children();
        foreach (var pid in _pids)
        {
            if (ReadRssKb(pid) is { } kb)
            {
                _rss[pid].Add(kb / 1024.0);
            }
            var ticks = _cpu[pid];
            foreach (var p in children.GetValueOrDefault(pid, []).Append(pid))
            {
                if (ReadCpuTicks(p) is { } t)
                {
                    ticks[p] = ticks.TryGetValue(p, out var seen) ? (seen.First, t) : (t, t);
                }
            }
        }
    }

    /// <summary>Parent → live children, from /proc/*/stat.</summary>
    private static Dictionary<int, List<int>> Children()
    {
        var map = new Dictionary<int, List<int>>();
        foreach (var dir in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(dir), NumberStyles.None, CultureInfo.InvariantCulture, out var pid) || ReadStat(pid) is not { } stat)
            {
                continue;
            }
            if (!map.TryGetValue(stat.Parent, out var list))
            {
                map[stat.Parent] = list = [];
            }
            list.Add(pid);
        }
        return map;
    }

    public static long? ReadRssKb(int pid)
    {
        try
        {
            return ParseVmRss(File.ReadAllLines($"/proc/{pid}/status"));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    public static long? ParseVmRss(IEnumerable<string> statusLines)
    {
        foreach (var line in statusLines)
        {
            if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
            {
                var digits = new string(line.AsSpan(6).Trim().ToString().TakeWhile(char.IsAsciiDigit).ToArray());
                return long.TryParse(digits, out var kb) ? kb : null;
            }
        }
        return null;
    }

    private static long? ReadCpuTicks(int pid) => ReadStat(pid)?.CpuTicks;

    private static (int Parent, long CpuTicks)? ReadStat(int pid)
    {
        try
        {
            return ParseStat(File.ReadAllText($"/proc/{pid}/stat"));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>Parent pid and utime + stime from a /proc/PID/stat line; the name in parentheses may hold spaces.</summary>
    public static (int Parent, long CpuTicks)? ParseStat(string stat)
    {
        var close = stat.LastIndexOf(')');
        if (close < 0)
        {
            return null;
        }
        var fields = stat[(close + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        // fields[0] is the state (field 3 of proc(5)); ppid is field 4, utime 14, stime 15.
        return fields.Length > 12 &&
               int.TryParse(fields[1], NumberStyles.None, CultureInfo.InvariantCulture, out var parent) &&
               long.TryParse(fields[11], NumberStyles.None, CultureInfo.InvariantCulture, out var user) &&
               long.TryParse(fields[12], NumberStyles.None, CultureInfo.InvariantCulture, out var system)
            ? (parent, user + system)
            : null;
    }

    public async Task<IReadOnlyList<ProcessStats>> StopAsync()
    {
        await _stop.CancelAsync();
        if (_loop is not null)
        {
            await _loop;
        }
        Sample();
        var seconds = Math.Max(0.001, (DateTime.UtcNow - _started).TotalSeconds);
        return _pids.Select(pid =>
        {
            var rss = _rss[pid];
            var cpu = _cpu[pid].Values.Sum(t => t.Last - t.First) / TicksPerSecond;
            return ProcessStats.Of(watched.First(w => w.Pid == pid).Role, pid, Name(pid), rss, cpu, seconds);
        }).ToList();
    }

    private static string Name(int pid)
    {
        try
        {
            return File.ReadAllText($"/proc/{pid}/comm").Trim();
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return "?";
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _stop.Dispose();
    }
}
