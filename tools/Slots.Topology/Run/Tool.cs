using System.Diagnostics;

namespace Slots.Topology.Run;

/// <summary>Runs a command-line tool (initdb, pg_ctl, rabbitmqctl, haproxy -c, …) to completion.</summary>
public static class Tool
{
    /// <summary>
    /// Returns its standard output; throws InvalidOperationException with the tool's output when it
    /// fails or overruns <paramref name="timeout"/> (then it is killed with its children).
    /// </summary>
    public static async Task<string> RunAsync(string file, IReadOnlyList<string> args, TimeSpan timeout, Action<ProcessStartInfo>? configure = null)
    {
        var (code, stdout, stderr) = await TryRunAsync(file, args, timeout, configure);
        if (code != 0)
        {
            throw new InvalidOperationException($"{Path.GetFileName(file)} {string.Join(' ', args)} exited with {code}: {stderr}{stdout}");
        }

        return stdout;
    }

    /// <summary>Its exit code and output, whatever the code; throws only when it cannot start or overruns.</summary>
    public static async Task<(int Code, string Stdout, string Stderr)> TryRunAsync(
        string file, IReadOnlyList<string> args, TimeSpan timeout, Action<ProcessStartInfo>? configure = null)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        configure?.Invoke(start);
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        var name = Path.GetFileName(file);
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{name} did not start");
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var limit = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(limit.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new InvalidOperationException($"{name} {string.Join(' ', args)} took longer than {timeout.TotalSeconds} s");
        }

        // A daemon it started with the output pipes inherited would keep them open forever.
        var outputs = Task.WhenAll(stdout, stderr);
        if (await Task.WhenAny(outputs, Task.Delay(OutputGrace)) != outputs)
        {
            throw new InvalidOperationException(
                $"{name} {string.Join(' ', args)} exited with {process.ExitCode}, but a process it started still holds its output open");
        }

        return (process.ExitCode, await stdout, await stderr);
    }

    /// <summary>How long output may go on arriving after the tool exited.</summary>
    public static readonly TimeSpan OutputGrace = TimeSpan.FromSeconds(15);

    /// <summary>A described command run to completion: its environment on top of the caller's, its folder, and
    /// as the postgres user when it says so and the caller is root (runuser, which returns).</summary>
    public static Task<(int Code, string Stdout, string Stderr)> TryRunAsync(Command command, TimeSpan timeout)
    {
        var (file, args) = Launcher.AsUser(command, longRunning: false);
        return TryRunAsync(file, args, timeout, start => Launcher.Configure(start, command));
    }
}
