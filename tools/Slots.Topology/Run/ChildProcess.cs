using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace Slots.Topology.Run;

/// <summary>
/// An attached server process (the test fixtures'): output goes to a log file (its tail explains a failure), and
/// it is stopped when the test disposes it or, failing that, when the test process exits.
/// </summary>
public sealed class ChildProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly StreamWriter _log;

    private ChildProcess(Process process, string logPath, StreamWriter log)
    {
        _process = process;
        _log = log;
        LogPath = logPath;
        AppDomain.CurrentDomain.ProcessExit += OnProcessExit;
    }

    public int Id => _process.Id;

    public string LogPath { get; }

    public bool HasExited => _process.HasExited;

    public static ChildProcess Start(string file, IEnumerable<string> args, IReadOnlyDictionary<string, string> environment, string logPath)
    {
        var start = new ProcessStartInfo(file)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }
        foreach (var (key, value) in environment)
        {
            start.Environment[key] = value;
        }
        var log = new StreamWriter(logPath, append: true) { AutoFlush = true };
        var process = new Process { StartInfo = start };
        process.OutputDataReceived += (_, e) => Write(log, e.Data);
        process.ErrorDataReceived += (_, e) => Write(log, e.Data);
        if (!process.Start())
        {
            throw new InvalidOperationException($"{file} did not start");
        }
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return new ChildProcess(process, logPath, log);
    }

    /// <summary>SIGKILL: the process dies at once, mid-request, as in a crash.</summary>
    public void Kill()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: false);
        }
    }

    /// <summary>SIGTERM, then up to <paramref name="grace"/> for a clean exit, then SIGKILL.</summary>
    public async Task StopAsync(TimeSpan grace)
    {
        if (_process.HasExited)
        {
            return;
        }
        using (var term = Process.Start("kill", ["-TERM", _process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
        {
            await term.WaitForExitAsync();
        }
        using var limit = new CancellationTokenSource(grace);
        try
        {
            await _process.WaitForExitAsync(limit.Token);
        }
        catch (OperationCanceledException)
        {
            Kill();
            await _process.WaitForExitAsync();
        }
    }

    /// <summary>The last lines of the process's output, for an assertion message.</summary>
    public string Tail(int lines = 40)
    {
        try
        {
            using var reader = new StreamReader(new FileStream(LogPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite));
            var all = reader.ReadToEnd().Split('\n');
            return string.Join('\n', all.TakeLast(lines));
        }
        catch (IOException ex)
        {
            return $"(log unreadable: {ex.Message})";
        }
    }

    public async ValueTask DisposeAsync()
    {
        AppDomain.CurrentDomain.ProcessExit -= OnProcessExit;
        await StopAsync(TimeSpan.FromSeconds(10));
        _process.Dispose();
        // Under the lock the output handlers take: a last line may still be arriving.
        lock (_log)
        {
            _log.Dispose();
        }
    }

    /// <summary>A port nobody listens on right now, on loopback (the server binds it a moment later).</summary>
    public static int FreePort()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        return ((IPEndPoint)probe.LocalEndpoint).Port;
    }

    private void OnProcessExit(object? sender, EventArgs e) => Kill();

    private static void Write(StreamWriter log, string? line)
    {
        if (line is null)
        {
            return;
        }
        lock (log)
        {
            try
            {
                log.WriteLine(line);
            }
            catch (ObjectDisposedException)
            {
            }
        }
    }
}
