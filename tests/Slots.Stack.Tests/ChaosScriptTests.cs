using System.Diagnostics;
using Slots.Testing;

namespace Slots.Stack.Tests;

/// <summary>loadtest/chaos.sh's own start, up to the point where it needs the built load test.</summary>
public sealed class ChaosScriptTests
{
    [Theory]
    [InlineData("--seed", "3")]
    [InlineData("--quick", "--seed", "3")]
    public async Task A_full_run_gets_as_far_as_a_quick_one_before_it_needs_the_build(params string[] arguments)
    {
        // A full run ended at once with status 1 and no word: `out=…$([ quick = 1 ] && echo -quick)`
        // has status 1 when not quick, which set -e took as a failure.
        var state = Directory.CreateTempSubdirectory("slots-chaos-script-");
        try
        {
            var start = new ProcessStartInfo("bash") { WorkingDirectory = Repository.Root, RedirectStandardError = true, RedirectStandardOutput = true };
            start.ArgumentList.Add("loadtest/chaos.sh");
            foreach (var argument in arguments)
            {
                start.ArgumentList.Add(argument);
            }
            start.Environment["SLOTS_CHAOS_BUILD"] = "0";
            start.Environment["SLOTS_CHAOS_CONFIGURATION"] = "NoSuchConfiguration";
            start.Environment["SLOTS_CHAOS_STACK_DIR"] = state.FullName;
            using var script = Process.Start(start)!;
            var errors = script.StandardError.ReadToEndAsync(TestContext.Current.CancellationToken);
            await script.StandardOutput.ReadToEndAsync(TestContext.Current.CancellationToken);
            await script.WaitForExitAsync(TestContext.Current.CancellationToken);

            Assert.Contains("Slots.LoadTest.dll is missing", await errors);
            Assert.Equal(2, script.ExitCode);
        }
        finally
        {
            state.Delete(recursive: true);
        }
    }
}
