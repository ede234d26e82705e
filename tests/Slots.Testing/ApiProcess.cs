using System.Diagnostics;
using System.Globalization;

namespace Slots.Testing;

/// <summary>
/// One Slots API instance as a real process: `dotnet exec` of the built Slots.Api.dll on a
/// loopback port, configured through environment variables, the way the stack script runs it.
/// </summary>
public sealed class ApiProcess : IAsyncDisposable
{
    private readonly ChildProcess _process;

    private ApiProcess(ChildProcess process, int port)
    {
        _process = process;
        Port = port;
    }

    public int Port { get; }

    public string Address => $"127.0.0.1:{Port}";

    public Uri BaseAddress => new($"http://127.0.0.1:{Port}");

    public bool HasExited => _process.HasExited;

    /// <summary>
    /// Starts the API with the given configuration (keys as in appsettings, "Slots:Storage:Provider")
    /// and waits until /health/ready answers 200.
    /// </summary>
    public static async Task<ApiProcess> StartAsync(IReadOnlyDictionary<string, string> settings, string logFolder, string name, CancellationToken ct)
    {
        var port = ChildProcess.FreePort();
        var environment = new Dictionary<string, string>
        {
            ["ASPNETCORE_ENVIRONMENT"] = "Production",
            ["ASPNETCORE_URLS"] = $"http://127.0.0.1:{port}",
            ["DOTNET_NOLOGO"] = "1",
            // Several instances share two cores with the test: workstation GC keeps each one small.
            ["DOTNET_gcServer"] = "0",
            // Production refuses to start without it; a caller's settings may name another.
            ["Slots__WaitingRoom__SigningKey"] = "tests-waiting-room-signing-key-0123456789",
        };
        foreach (var (key, value) in settings)
        {
            environment[key.Replace(":", "__", StringComparison.Ordinal)] = value;
        }
        var dll = Repository.BuiltAssembly("Slots.Api");
        var process = ChildProcess.Start("dotnet", ["exec", dll], environment, Path.Combine(logFolder, name + ".log"));
        var api = new ApiProcess(process, port);
        try
        {
            await api.WaitReadyAsync(TimeSpan.FromSeconds(90), ct);
        }
        catch
        {
            await api.DisposeAsync();
            throw;
        }
        return api;
    }

    /// <summary>SIGKILL, as in a crash.</summary>
    public void Kill() => _process.Kill();

    public string LogTail() => _process.Tail();

    public ValueTask DisposeAsync() => _process.DisposeAsync();

    private async Task WaitReadyAsync(TimeSpan limit, CancellationToken ct)
    {
        using var http = new HttpClient { BaseAddress = BaseAddress, Timeout = TimeSpan.FromSeconds(5) };
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < limit)
        {
            if (_process.HasExited)
            {
                throw new InvalidOperationException($"The API on port {Port} exited while starting:\n{_process.Tail()}");
            }
            try
            {
                using var ready = await http.GetAsync("/health/ready", ct);
                if (ready.IsSuccessStatusCode)
                {
                    return;
                }
            }
            catch (HttpRequestException)
            {
            }
            catch (TaskCanceledException) when (!ct.IsCancellationRequested)
            {
            }
            await Task.Delay(200, ct);
        }
        throw new TimeoutException(string.Create(CultureInfo.InvariantCulture,
            $"The API on port {Port} was not ready after {limit.TotalSeconds} s:\n{_process.Tail()}"));
    }
}
