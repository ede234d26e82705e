using System.Diagnostics;
using Slots.LoadTest.Chaos;
using Slots.Topology.Run;

namespace Slots.LoadTest.Tests.Chaos;

/// <summary>What the nemesis asks of the stack (<see cref="IStackControl"/>) for each kind of fault, on a fake stack
/// whose parts are real sleeping processes (Linux, as the stack: the nemesis reads /proc and signals with kill).</summary>
public sealed class NemesisStackTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("slots-nemesis-").FullName;

    [Fact]
    public async Task A_part_that_misses_its_heal_is_recorded_unhealed_and_started_a_second_time()
    {
        using var part = Sleeper();
        var stack = new FakeStack(part) { FailedStarts = 1 };
        using var history = new HistoryRecorder(_folder);
        var log = new StringWriter();

        await new Nemesis(stack, _folder, history, log).RunAsync([new PlannedFault(1, "api-kill", "api1", 10, 0)], CancellationToken.None);

        Assert.True(part.WaitForExit(10_000), "the part was not killed");
        Assert.Equal(["api1", "api1"], stack.Starts);
        var fault = Assert.Single(history.Faults);
        Assert.False(fault.Healed);
        Assert.NotNull(fault.KilledAt);
        Assert.Contains("stack: api1: not healthy after 90s", log.ToString(), StringComparison.Ordinal);
        Assert.Contains("api1 came up on a second start", log.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_primary_is_resolved_when_its_fault_is_due_and_a_postgres_crash_goes_through_pg_stop()
    {
        using var part = Sleeper();
        var stack = new FakeStack(part) { Primary = "pg2" };
        using var history = new HistoryRecorder(_folder);

        await new Nemesis(stack, _folder, history, TextWriter.Null).RunAsync(
            [new PlannedFault(1, "primary-postgres-kill", "primary", 10, 0), new PlannedFault(2, "postgres-immediate", "postgres", 10, 0)],
            CancellationToken.None);

        Assert.Equal(["pg2-postgres"], stack.Looked);
        Assert.Equal(["immediate"], stack.PgStops);
        Assert.Equal(["pg2", "postgres"], stack.Starts);
        Assert.Equal([("pg2", true), ("postgres", true)], history.Faults.Select(f => (f.Target, f.Healed)));
    }

    private static Process Sleeper() => Process.Start(new ProcessStartInfo("sleep", "60"))!;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private sealed class FakeStack(Process process) : IStackControl
    {
        public int FailedStarts { get; init; }

        public string? Primary { get; init; }

        public List<string> Starts { get; } = [];

        public List<string> Looked { get; } = [];

        public List<string> PgStops { get; } = [];

        public Task<IReadOnlyList<int>?> PidsAsync(string part, CancellationToken ct)
        {
            Looked.Add(part);
            return Task.FromResult<IReadOnlyList<int>?>(process.HasExited ? null : [process.Id]);
        }

        public Task StartAsync(string part, CancellationToken ct)
        {
            Starts.Add(part);
            return Starts.Count <= FailedStarts
                ? Task.FromException(new StackStartException($"{part}: not healthy after 90s; see logs/"))
                : Task.CompletedTask;
        }

        public Task<string?> PrimaryAsync(CancellationToken ct) => Task.FromResult(Primary);

        public Task PgStopAsync(string mode, CancellationToken ct)
        {
            PgStops.Add(mode);
            return Task.CompletedTask;
        }

        public Task UpAsync(CancellationToken ct) => Task.CompletedTask;
    }
}
