using System.Diagnostics;
using Slots.Testing;

namespace Slots.Stack.Tests.Infrastructure;

/// <summary>The project's shell scripts, run as a person would: bash from the repository root.</summary>
public static class Scripts
{
    /// <summary>Runs the script with the arguments and environment given; its exit code and everything it printed.</summary>
    public static async Task<(int ExitCode, string Output, string Errors)> RunAsync(
        string script, IEnumerable<string> arguments, IReadOnlyDictionary<string, string> environment, CancellationToken ct)
    {
        var start = new ProcessStartInfo("bash") { WorkingDirectory = Repository.Root, RedirectStandardError = true, RedirectStandardOutput = true };
        start.ArgumentList.Add(script);
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }
        foreach (var (name, value) in environment)
        {
            start.Environment[name] = value;
        }
        using var process = Process.Start(start)!;
        var errors = process.StandardError.ReadToEndAsync(ct);
        var output = await process.StandardOutput.ReadToEndAsync(ct);
        await process.WaitForExitAsync(ct);
        return (process.ExitCode, output, await errors);
    }
}
