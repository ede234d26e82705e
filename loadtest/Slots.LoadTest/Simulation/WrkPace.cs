using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;
using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Simulation;

/// <summary>
/// A read timed by wrk, the machine's yardstick, rather than by this generator: its answers per second, p99, the answers
/// that were not 2xx, and the watched processes over the measured seconds.
/// </summary>
public sealed record WrkPaceReport(int Connections, double Seconds, long Answers, double PerSecond, double P99Ms, long Non2xx,
    IReadOnlyList<ProcessStats> Processes)
{
    /// <summary>CPU of the watched API processes per 2xx answer, in µs; null when none was watched or nothing answered.</summary>
    public double? ApiCpuMicrosPerAnswer => ProcessCpu.ApiMicrosPerAnswer(Processes, Answers - Non2xx);
}

/// <summary>
/// The same read at wrk's pace: on two cores this generator offers a read every 70–80 µs of its own CPU, and at that pace
/// every answer wakes an API thread, so the API's CPU per answer measures the pace as much as the answer. wrk (one thread,
/// the same connections) offers what the API can take; the API's CPU per answer is then the answer's cost.
/// </summary>
public static partial class WrkPace
{
    /// <summary>Whether wrk is on the PATH.</summary>
    public static bool Installed => Bench.BenchHost.OnPath("wrk");

    public static async Task<WrkPaceReport?> RunAsync(Uri url, int connections, int seconds, IReadOnlyList<(string Role, int Pid)> watched, CancellationToken ct)
    {
        if (!Installed)
        {
            Console.WriteLine("   wrk not found (apt-get install wrk): the read is not timed at wrk's pace");
            return null;
        }
        await WrkAsync(url, connections, Math.Max(2, seconds / 5), ct); // its connections opened and the path warm, uncounted
        await using var sampler = new ProcessSampler(watched);
        sampler.Start();
        var output = await WrkAsync(url, connections, seconds, ct);
        var processes = await sampler.StopAsync();
        return Parse(output, connections, processes) ?? throw new InvalidOperationException($"wrk's output was not understood:\n{output}");
    }

    private static async Task<string> WrkAsync(Uri url, int connections, int seconds, CancellationToken ct)
    {
        var start = new ProcessStartInfo("wrk") { UseShellExecute = false, RedirectStandardOutput = true };
        foreach (var arg in new[] { "-t1", $"-c{connections}", $"-d{seconds}s", "--latency", url.ToString() })
        {
            start.ArgumentList.Add(arg);
        }
        using var process = Process.Start(start) ?? throw new InvalidOperationException("wrk did not start");
        var output = await process.StandardOutput.ReadToEndAsync(ct);
        await process.WaitForExitAsync(ct);
        return process.ExitCode == 0 ? output : throw new InvalidOperationException($"wrk ended with {process.ExitCode}:\n{output}");
    }

    /// <summary>wrk's own report (with --latency): "N requests in Ts", the 99 % line, "Non-2xx or 3xx responses"; null when a part is missing.</summary>
    public static WrkPaceReport? Parse(string output, int connections, IReadOnlyList<ProcessStats> processes)
    {
        var total = Total().Match(output);
        var p99 = P99().Match(output);
        if (!total.Success || !p99.Success)
        {
            return null;
        }
        var answers = long.Parse(total.Groups[1].Value, CultureInfo.InvariantCulture);
        var seconds = Millis(total.Groups[2].Value, total.Groups[3].Value) / 1000;
        var non2xx = Non2xx().Match(output) is { Success: true } n ? long.Parse(n.Groups[1].Value, CultureInfo.InvariantCulture) : 0;
        return new WrkPaceReport(connections, Math.Round(seconds, 2), answers, seconds > 0 ? Math.Round(answers / seconds, 1) : 0,
            Math.Round(Millis(p99.Groups[1].Value, p99.Groups[2].Value), 2), non2xx, processes);
    }

    private static double Millis(string value, string unit) => double.Parse(value, CultureInfo.InvariantCulture) * unit switch
    {
        "us" => 0.001,
        "ms" => 1,
        "s" => 1000,
        "m" => 60_000,
        _ => throw new FormatException($"wrk's unit '{unit}'"),
    };

    [GeneratedRegex(@"^\s*(\d+) requests in ([\d.]+)(us|ms|s|m),", RegexOptions.Multiline)]
    private static partial Regex Total();

    [GeneratedRegex(@"^\s*99(?:\.0+)?%\s+([\d.]+)(us|ms|s|m)\s*$", RegexOptions.Multiline)]
    private static partial Regex P99();

    [GeneratedRegex(@"^\s*Non-2xx or 3xx responses: (\d+)", RegexOptions.Multiline)]
    private static partial Regex Non2xx();
}
