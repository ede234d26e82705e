using Slots.Testing;

namespace Slots.Stack.Tests.Infrastructure;

/// <summary>The project's shell scripts and its stack tool (./slots stack), run as a person would, from the repository root.</summary>
public static class Scripts
{
    /// <summary>The longest a script may run (the HA stack's start on a busy machine takes about 3 minutes).</summary>
    public static readonly TimeSpan Limit = TimeSpan.FromMinutes(10);

    /// <summary>
    /// Runs the script with the arguments and environment given; its exit code and everything it printed.
    /// One that overruns <see cref="Limit"/>, or leaves a process holding its output, fails the test
    /// rather than holding the run (Tool.TryRunAsync kills it with its children).
    /// </summary>
    public static async Task<(int ExitCode, string Output, string Errors)> RunAsync(
        string script, IEnumerable<string> arguments, IReadOnlyDictionary<string, string> environment, CancellationToken ct)
        => await RunProgramAsync("bash", [script, .. arguments], environment, ct);

    private static async Task<(int ExitCode, string Output, string Errors)> RunProgramAsync(
        string program, IEnumerable<string> arguments, IReadOnlyDictionary<string, string> environment, CancellationToken ct)
    {
        ct.ThrowIfCancellationRequested();
        return await Tool.TryRunAsync(program, [.. arguments], Limit, start =>
        {
            start.WorkingDirectory = Repository.Root;
            foreach (var (name, value) in environment)
            {
                start.Environment[name] = value;
            }
        });
    }

    /// <summary>The load simulator (loadtest/Slots.LoadTest) with a verb, in the tests' configuration; bounded as a script is.</summary>
    public static Task<(int ExitCode, string Output, string Errors)> SimulatorAsync(
        IEnumerable<string> arguments, IReadOnlyDictionary<string, string> environment, CancellationToken ct) =>
        RunProgramAsync("dotnet", [Repository.BuiltAssembly("Slots.LoadTest"), .. arguments], environment, ct);

    /// <summary>
    /// The stack tool (tools/Slots.Stack, what ./slots stack runs) with the arguments and environment given, in the
    /// configuration these tests were built in (the project reference builds it first); bounded as a script is.
    /// </summary>
    public static Task<(int ExitCode, string Output, string Errors)> StackAsync(
        IEnumerable<string> arguments, IReadOnlyDictionary<string, string> environment, CancellationToken ct)
    {
        return RunProgramAsync("dotnet", [Repository.BuiltAssembly("Slots.Stack"), .. arguments], environment, ct);
    }
}
