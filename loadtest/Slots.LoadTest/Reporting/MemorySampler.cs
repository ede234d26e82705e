namespace Slots.LoadTest.Reporting;

public sealed record MemoryStats(int Pid, double MaxRssMb, double AvgRssMb, int Samples);

/// <summary>Resident memory of the API processes (VmRSS in /proc/PID/status) sampled twice a second during a run.</summary>
public sealed class MemorySampler(IReadOnlyList<int> pids) : IAsyncDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private readonly Dictionary<int, List<double>> _samples = pids.ToDictionary(p => p, _ => new List<double>());
    private Task? _loop;

    public void Start() => _loop = pids.Count == 0 ? Task.CompletedTask : Task.Run(LoopAsync);

    private async Task LoopAsync()
    {
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(500));
        do
        {
            foreach (var pid in pids)
            {
                if (ReadRssKb(pid) is { } kb)
                {
                    _samples[pid].Add(kb / 1024.0);
                }
            }
        }
        while (await timer.WaitForNextTickAsync(_stop.Token).AsTask().ContinueWith(t => t.IsCompletedSuccessfully && t.Result, TaskScheduler.Default));
    }

    /// <summary>VmRSS in kB, or null when the process is gone or the line is missing.</summary>
    public static long? ReadRssKb(int pid)
    {
        try
        {
            return ParseVmRss(File.ReadAllLines($"/proc/{pid}/status"));
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
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

    public async Task<IReadOnlyList<MemoryStats>> StopAsync()
    {
        await _stop.CancelAsync();
        if (_loop is not null)
        {
            await _loop;
        }
        return _samples.Select(kv => new MemoryStats(kv.Key,
            kv.Value.Count == 0 ? 0 : Math.Round(kv.Value.Max(), 1),
            kv.Value.Count == 0 ? 0 : Math.Round(kv.Value.Average(), 1),
            kv.Value.Count)).ToList();
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _stop.Dispose();
    }
}
