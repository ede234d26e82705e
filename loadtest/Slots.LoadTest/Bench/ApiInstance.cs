using System.Diagnostics;
using Slots.Topology.Run;

namespace Slots.LoadTest.Bench;

/// <summary>
/// One API process of the benchmark's own (the Release build), on a free loopback port, configured through environment
/// variables as the stack configures it; ready once /health/ready answers. Stopped (SIGTERM, then SIGKILL) when disposed.
/// </summary>
internal sealed class ApiInstance : IAsyncDisposable
{
    private readonly ChildProcess _process;

    private ApiInstance(ChildProcess process, string url)
    {
        _process = process;
        Url = url;
    }

    public string Url { get; }

    public int Pid => _process.Id;

    public string LogPath => _process.LogPath;

    /// <summary>Starts one and waits until it is ready (at most a minute); <paramref name="pin"/> is its taskset prefix.</summary>
    public static async Task<ApiInstance> StartAsync(string apiDll, string log, IReadOnlyDictionary<string, string> environment, IReadOnlyList<string> pin, CancellationToken ct)
    {
        var port = BenchHost.FreePort();
        var url = $"http://127.0.0.1:{port}";
        var env = new Dictionary<string, string>(environment) { ["ASPNETCORE_URLS"] = url };
        // taskset execs the program: the PID is the API's own.
        IReadOnlyList<string> command = [.. pin, "dotnet", apiDll];
        var process = ChildProcess.Start(command[0], command.Skip(1), env, log);
        var api = new ApiInstance(process, url);
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < TimeSpan.FromMinutes(1))
        {
            if (process.HasExited)
            {
                throw new InvalidOperationException($"An API instance exited at its start:\n{process.Tail()}");
            }
            try
            {
                using var ready = await http.GetAsync(new Uri($"{url}/health/ready"), ct);
                if (ready.IsSuccessStatusCode)
                {
                    return api;
                }
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }
            catch (TaskCanceledException) when (!ct.IsCancellationRequested)
            {
                // A slow first answer.
            }
            await Task.Delay(500, ct);
        }
        await api.DisposeAsync();
        throw new InvalidOperationException($"An API instance was not ready after a minute:\n{process.Tail()}");
    }

    /// <summary>CPU seconds it has used so far.</summary>
    public double CpuSeconds() => BenchHost.CpuSeconds(Pid);

    public ValueTask DisposeAsync() => _process.DisposeAsync();
}
