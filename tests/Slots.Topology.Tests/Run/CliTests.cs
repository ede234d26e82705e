using Slots.Topology.Run;
using Repository = Slots.Testing.Repository;

namespace Slots.Topology.Tests.Run;

/// <summary>Slots.Stack's exit codes as scripts/stack.sh's: 0 done, 1 not running or could not start, 2 a wrong
/// request, each with its message. Nothing here starts a part.</summary>
public sealed class CliTests : IDisposable
{
    private readonly string _state = Directory.CreateTempSubdirectory("slots-cli-").FullName;

    [Fact]
    public async Task Help_lists_the_verbs_and_exits_0()
    {
        var (code, output, _) = await RunAsync(["help"]);

        Assert.Equal(0, code);
        foreach (var verb in new[] { "up [--ha]", "down", "status", "start PART", "stop PART", "pids PART", "primary", "pg-stop", "reload-cert", "wipe" })
        {
            Assert.Contains(verb, output, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task An_unknown_verb_prints_the_usage_and_exits_2()
    {
        var (code, _, errors) = await RunAsync(["bounce"]);

        Assert.Equal(2, code);
        Assert.Contains("usage: ./slots stack VERB", errors, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Backup_and_restore_say_they_are_still_the_scripts_and_exit_2()
    {
        var (code, _, errors) = await RunAsync(["backup", "--type", "full"]);

        Assert.Equal(2, code);
        Assert.Contains("scripts/stack.sh backup", errors, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_api_count_haproxy_cannot_name_is_refused_with_the_scripts_message_and_exit_2()
    {
        var (code, _, errors) = await RunAsync(["status"], ("SLOTS_API_COUNT", "9"));

        Assert.Equal(2, code);
        Assert.Contains("SLOTS_API_COUNT must be 1..4 (haproxy.cfg names SLOTS_API_1 .. SLOTS_API_4).", errors, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Pids_of_a_part_that_does_not_run_exit_1_and_of_an_unknown_part_exit_2()
    {
        var (notRunning, output, _) = await RunAsync(["pids", "api1"]);
        var (unknown, _, errors) = await RunAsync(["pids", "api9"]);

        Assert.Equal((1, ""), (notRunning, output.Trim()));
        Assert.Equal(2, unknown);
        Assert.Contains("unknown part api9", errors, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Status_of_a_stack_that_never_started_lists_every_part_down_and_exits_0()
    {
        var (code, output, _) = await RunAsync(["status"], ("SLOTS_PG_PORT", "1"), ("SLOTS_API_FIRST_PORT", "2"), ("SLOTS_SCHEDULER_PORT", "4"));

        Assert.Equal(0, code);
        foreach (var part in new[] { "postgres", "epmd", "rabbitmq", "api1", "api2", "scheduler", "haproxy" })
        {
            Assert.Matches($@"(?m)^  {part} +- +down ", output);
        }
    }

    private async Task<(int Code, string Output, string Errors)> RunAsync(string[] args, params (string Key, string Value)[] env) =>
        await Tool.TryRunAsync("dotnet", [Dll, .. args], TimeSpan.FromMinutes(1), start =>
        {
            start.Environment["SLOTS_STACK_DIR"] = _state;
            foreach (var (key, value) in env)
            {
                start.Environment[key] = value;
            }
        });

    /// <summary>The tool in the configuration these tests were built in (the project reference builds it first).</summary>
    private static string Dll => Path.Combine(
        Repository.Root, "artifacts", "bin", "Slots.Stack",
        Path.GetFileName(Path.TrimEndingDirectorySeparator(AppContext.BaseDirectory)), "Slots.Stack.dll");

    public void Dispose() => Directory.Delete(_state, recursive: true);
}
