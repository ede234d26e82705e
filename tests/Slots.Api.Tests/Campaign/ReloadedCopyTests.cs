using Slots.Catalogue;

namespace Slots.Api.Tests.Campaign;

/// <summary>The catalogue's in-memory copy and a write on this instance that lands while a load is running.</summary>
public sealed class ReloadedCopyTests
{
    // A load that had read the tables before the write finished after it and was kept as fit: the writer's
    // next read answered from before its own write.
    [Fact]
    public async Task A_write_made_while_a_load_runs_is_read_by_the_next_reader()
    {
        var ct = TestContext.Current.CancellationToken;
        var table = new Table("before");
        var copy = new ReloadedCopy<string>(table.LoadAsync, TimeProvider.System, TimeSpan.FromSeconds(30));
        table.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

        var first = copy.GetAsync(ct).AsTask(); // its load has read "before" and waits in the database
        await table.ReadAsync.WaitAsync(TimeSpan.FromSeconds(10), ct);
        table.Value = "after";
        copy.Invalidate();
        table.Gate.SetResult();

        Assert.Equal("before", (await first).Value); // it began before the write
        Assert.Equal("after", (await copy.GetAsync(ct)).Value);
        Assert.Equal(2, table.Loads);
    }

    [Fact]
    public async Task A_write_made_while_a_reload_runs_behind_the_readers_is_read_by_the_next_reader()
    {
        var ct = TestContext.Current.CancellationToken;
        var clock = new ManualClock();
        var table = new Table("before");
        var copy = new ReloadedCopy<string>(table.LoadAsync, clock, TimeSpan.FromSeconds(30));
        await copy.GetAsync(ct);
        table.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

        clock.Now += TimeSpan.FromSeconds(31);
        Assert.Equal("before", (await copy.GetAsync(ct)).Value); // answered as it is; the reload starts behind it
        await table.ReadAsync.WaitAsync(TimeSpan.FromSeconds(10), ct);
        table.Value = "after";
        copy.Invalidate();
        table.Gate.SetResult();

        Assert.Equal("after", (await copy.GetAsync(ct)).Value);
        Assert.Equal(3, table.Loads);
    }

    private sealed class ManualClock : TimeProvider
    {
        public DateTimeOffset Now { get; set; } = new(2030, 1, 2, 8, 0, 0, TimeSpan.Zero);

        public override DateTimeOffset GetUtcNow() => Now;
    }

    /// <summary>A table read by the copy's load: the load reads the value, then waits on the gate while one is set.</summary>
    private sealed class Table(string value)
    {
        private readonly TaskCompletionSource _read = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private int _loads;

        public string Value { get; set; } = value;

        public TaskCompletionSource? Gate { get; set; }

        public int Loads => Volatile.Read(ref _loads);

        /// <summary>Completes once a load has read the table while a gate was set.</summary>
        public Task ReadAsync => _read.Task;

        public async Task<string> LoadAsync(CancellationToken ct)
        {
            Interlocked.Increment(ref _loads);
            var read = Value;
            if (Gate is { Task.IsCompleted: false } gate)
            {
                _read.TrySetResult();
                await gate.Task.WaitAsync(ct);
            }
            return read;
        }
    }
}
