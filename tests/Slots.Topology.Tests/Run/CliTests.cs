using Slots.Topology.Run;
using Repository = Slots.Testing.Repository;

namespace Slots.Topology.Tests.Run;

/// <summary>Slots.Stack's exit codes: 0 done, 1 not running or could not start, 2 a wrong
/// request, each with its message. Nothing here starts a part.</summary>
public sealed class CliTests : IDisposable
{
    private readonly string _state = Directory.CreateTempSubdirectory("slots-cli-").FullName;

    [Fact]
    public async Task Help_lists_the_verbs_and_exits_0()
    {
        var (code, output, _) = await RunAsync(["help"]);

        Assert.Equal(0, code);
        foreach (var verb in new[] { "up [--ha]", "down", "status", "start PART", "stop PART", "pids PART", "primary", "pg-stop", "reload-cert", "backup", "restore --to", "wipe" })
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
    public async Task Backup_and_restore_on_the_single_stack_name_the_HA_stack_and_exit_2()
    {
        var (backup, _, backupErrors) = await RunAsync(["backup", "--type", "full"]);
        var (restore, _, restoreErrors) = await RunAsync(["restore", "--to", "2026-11-27 02:10:00+00"]);

        Assert.Equal((2, 2), (backup, restore));
        Assert.Contains("Backups are on the high-availability stack: ./slots stack up --ha", backupErrors, StringComparison.Ordinal);
        Assert.Contains("Point-in-time restore is on the high-availability stack", restoreErrors, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Restore_without_a_moment_and_backup_of_an_unknown_type_print_their_usage_and_exit_2()
    {
        var (restore, _, restoreErrors) = await RunAsync(["restore"]);
        var (backup, _, backupErrors) = await RunAsync(["backup", "--type", "weekly"], ("SLOTS_STACK_HA", "1"));

        Assert.Equal((2, 2), (restore, backup));
        Assert.Contains("usage: ./slots stack restore --to", restoreErrors, StringComparison.Ordinal);
        Assert.Contains("--type is full or incr (or diff)", backupErrors, StringComparison.Ordinal);
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
        await Tool.TryRunAsync("dotnet", [Repository.BuiltAssembly("Slots.Stack"), .. args], TimeSpan.FromMinutes(1), start =>
        {
            start.Environment["SLOTS_STACK_DIR"] = _state;
            foreach (var (key, value) in env)
            {
                start.Environment[key] = value;
            }
        });

    public void Dispose() => Directory.Delete(_state, recursive: true);
}
