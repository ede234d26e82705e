using System.Diagnostics;
using System.Text;

namespace Slots.Testing;

/// <summary>
/// A .NET host (an API or the scheduler) run as its own process from its build output, for tests
/// that need to kill one abruptly. Output is kept for failure messages. Killed at dispose, and at
/// test-process exit should a test not get that far.
/// </summary>
public sealed class HostProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _output = new();

    private HostProcess(Process process)
    {
        _process = process;
        AppDomain.CurrentDomain.ProcessExit += (_, _) => Kill();
    }

    public int Id => _process.Id;

    public bool HasExited => _process.HasExited;

    /// <summary>What the process wrote so far (stdout and stderr).</summary>
    public string Output
    {
        get
        {
            lock (_output)
            {
                return _output.ToString();
            }
        }
    }

    /// <summary>Starts `dotnet {assembly}` in the assembly's folder with the given environment (configuration as Section__Key).</summary>
    public static HostProcess Start(string assemblyPath, IReadOnlyDictionary<string, string> environment)
    {
        var dotnet = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } hostPath && File.Exists(hostPath) ? hostPath : "dotnet";
        var start = new ProcessStartInfo(dotnet)
        {
            WorkingDirectory = Path.GetDirectoryName(assemblyPath)!,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(assemblyPath);
        foreach (var (key, value) in environment)
        {
            start.Environment[key] = value;
        }
        var process = Process.Start(start) ?? throw new InvalidOperationException($"{assemblyPath} did not start");
        var host = new HostProcess(process);
        process.OutputDataReceived += (_, e) => host.Append(e.Data);
        process.ErrorDataReceived += (_, e) => host.Append(e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return host;
    }

    /// <summary>The build output of a sibling project under artifacts/bin, in the same configuration as the calling test assembly.</summary>
    public static string BuildOutput(string project)
    {
        var own = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
        var path = Path.Combine(own.Parent!.Parent!.FullName, project, own.Name, project + ".dll");
        return File.Exists(path) ? path : throw new FileNotFoundException($"{project} is not built next to the tests", path);
    }

    /// <summary>Ends the process at once (SIGKILL): no shutdown hooks, no clean scheduler stop.</summary>
    public void Kill()
    {
        try
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
                _process.WaitForExit(10_000);
            }
        }
        catch (InvalidOperationException)
        {
            // already gone
        }
    }

    public ValueTask DisposeAsync()
    {
        Kill();
        _process.Dispose();
        return ValueTask.CompletedTask;
    }

    private void Append(string? line)
    {
        if (line is null)
        {
            return;
        }
        lock (_output)
        {
            if (_output.Length < 200_000)
            {
                _output.AppendLine(line);
            }
        }
    }
}
