using Slots.Stack.Tests.Infrastructure;

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
            var (exitCode, _, errors) = await Scripts.RunAsync("loadtest/chaos.sh", arguments, new Dictionary<string, string>
            {
                ["SLOTS_CHAOS_BUILD"] = "0",
                ["SLOTS_CHAOS_CONFIGURATION"] = "NoSuchConfiguration",
                ["SLOTS_CHAOS_STACK_DIR"] = state.FullName,
            }, TestContext.Current.CancellationToken);

            Assert.Contains("Slots.LoadTest.dll is missing", errors);
            Assert.Equal(2, exitCode);
        }
        finally
        {
            state.Delete(recursive: true);
        }
    }
}
