using System.Diagnostics;

namespace Slots.Testing;

/// <summary>Runs a command-line tool of a test server (initdb, pg_ctl, rabbitmqctl, …) to completion.</summary>
public static class Tool
{
    /// <summary>
    /// Returns its standard output; throws InvalidOperationException with the tool's output when it
    /// fails or overruns <paramref name="timeout"/> (then it is killed with its children).
    /// </summary>
    public static async Task<string> RunAsync(string file, IReadOnlyList<string> args, TimeSpan timeout, Action<ProcessStartInfo>? configure = null)
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
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"{name} {string.Join(' ', args)} exited with {process.ExitCode}: {await stderr}{await stdout}");
        }
        return await stdout;
    }
}
