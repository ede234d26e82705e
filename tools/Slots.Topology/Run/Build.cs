using System.Diagnostics;

namespace Slots.Topology.Run;

/// <summary>Builds the hosts the stack runs (the API and the scheduler) in the stack's configuration.</summary>
public static class Build
{
    public static async Task RunAsync(StackOptions options, Action<string> say, CancellationToken ct)
    {
        say($"Building ({options.Configuration})...");
        foreach (var project in new[] { "api/Slots.Api", "scheduler/Slots.Scheduler" })
        {
            var start = new ProcessStartInfo("dotnet") { UseShellExecute = false, WorkingDirectory = options.Root };
            foreach (var arg in (string[])["build", project, "-c", options.Configuration, "--nologo", "-v", "quiet"])
            {
                start.ArgumentList.Add(arg);
            }

            using var build = Process.Start(start) ?? throw new StackStartException("dotnet build did not start");
            await build.WaitForExitAsync(ct);
            if (build.ExitCode != 0)
            {
                throw new StackStartException($"dotnet build {project} -c {options.Configuration} failed (exit {build.ExitCode})");
            }
        }
    }
}
