using Microsoft.Extensions.Logging.Abstractions;
using Slots.Storage;

namespace Slots.Api.Tests.Storage;

/// <summary>
/// The group-commit loop the PostgreSQL and SQL Server batchers share, over an in-memory sender:
/// how it groups, orders, answers, retries and splits, with no database in the way.
/// </summary>
public sealed class GroupCommitTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task A_lone_operation_is_sent_at_once()
    {
        var sender = new Sender();
        await using var commit = sender.Commit(writers: 2);

        var answer = await commit.CommitAsync(7).WaitAsync(Patience);

        Assert.Equal(70, answer);
        Assert.Equal<int[]>([[7]], sender.Sent);
    }

    [Fact]
    public async Task Operations_waiting_while_the_writer_is_busy_go_together_in_batches_of_at_most_MaxBatch()
    {
        var sender = new Sender();
        var (commit, gate, first) = await BusyAsync(sender, maxBatch: 4);
        await using var _ = commit;

        var waiting = Enumerable.Range(1, 10).Select(commit.CommitAsync).ToList();
        gate.SetResult();

        Assert.Equal(0, await first.WaitAsync(Patience));
        Assert.Equal(Enumerable.Range(1, 10).Select(i => i * 10), await Task.WhenAll(waiting).WaitAsync(Patience));
        Assert.Equal([1, 4, 4, 2], sender.Sent.Select(b => b.Length));
    }

    [Fact]
    public async Task A_batch_is_sent_in_lock_order_and_each_caller_gets_its_own_answer()
    {
        var sender = new Sender();
        var (commit, gate, first) = await BusyAsync(sender);
        await using var _ = commit;

        int[] arrivals = [5, 3, 9, 1, 7];
        var answers = arrivals.Select(commit.CommitAsync).ToList();
        gate.SetResult();
        await first.WaitAsync(Patience);

        Assert.Equal(arrivals.Select(i => i * 10), await Task.WhenAll(answers).WaitAsync(Patience));
        Assert.Equal([1, 3, 5, 7, 9], sender.Sent[1]);
    }

    [Fact]
    public async Task A_conflict_retries_the_batch_then_splits_it_until_only_the_failing_operation_fails()
    {
        var sender = new Sender { ConflictOn = 3 };
        var (commit, gate, first) = await BusyAsync(sender);
        await using var _ = commit;

        var answers = new[] { 1, 2, 3, 4 }.Select(commit.CommitAsync).ToList();
        gate.SetResult();
        await first.WaitAsync(Patience);

        Assert.Equal(10, await answers[0].WaitAsync(Patience));
        Assert.Equal(20, await answers[1].WaitAsync(Patience));
        await Assert.ThrowsAsync<ConflictException>(() => answers[2].WaitAsync(Patience));
        Assert.Equal(40, await answers[3].WaitAsync(Patience));
        Assert.Equal<int[]>(
            [[0], [1, 2, 3, 4], [1, 2, 3, 4], [1, 2], [3, 4], [3, 4], [3], [3], [4]],
            sender.Sent);
    }

    [Fact]
    public async Task Another_failure_fails_exactly_its_batch_and_the_next_batch_is_sent_as_usual()
    {
        var sender = new Sender { BrokenOn = 2 };
        var (commit, gate, first) = await BusyAsync(sender);
        await using var _ = commit;

        var broken = new[] { 1, 2, 3 }.Select(commit.CommitAsync).ToList();
        gate.SetResult();
        await first.WaitAsync(Patience);
        foreach (var answer in broken)
        {
            await Assert.ThrowsAsync<IOException>(() => answer.WaitAsync(Patience));
        }

        Assert.Equal(40, await commit.CommitAsync(4).WaitAsync(Patience));
        Assert.Equal<int[]>([[0], [1, 2, 3], [4]], sender.Sent);
    }

    [Fact]
    public async Task Dispose_answers_what_is_queued_and_then_refuses_more()
    {
        var sender = new Sender();
        var gate = sender.Hold();
        var commit = sender.Commit(writers: 2);
        var queued = Enumerable.Range(0, 20).Select(commit.CommitAsync).ToList();
        await sender.Started.WaitAsync(Patience);

        var disposed = commit.DisposeAsync().AsTask();
        gate.SetResult();
        await disposed.WaitAsync(Patience);

        Assert.All(queued, q => Assert.True(q.IsCompletedSuccessfully));
        await Assert.ThrowsAsync<ObjectDisposedException>(() => commit.CommitAsync(21));
    }

    /// <summary>A commit whose only writer is busy sending [0] until the gate is set: what is queued meanwhile waits together.</summary>
    private static async Task<(GroupCommit<int, int> Commit, TaskCompletionSource Gate, Task<int> First)> BusyAsync(Sender sender, int maxBatch = 256)
    {
        var gate = sender.Hold();
        var commit = sender.Commit(maxBatch: maxBatch);
        var first = commit.CommitAsync(0);
        await sender.Started.WaitAsync(Patience);
        return (commit, gate, first);
    }

    private sealed class ConflictException() : Exception("conflict");

    /// <summary>
    /// Answers each operation ten times itself and records every batch it was handed. Optionally
    /// holds the first call until released, conflicts on any batch holding <see cref="ConflictOn"/>,
    /// and fails the first batch holding <see cref="BrokenOn"/> as a broken connection would.
    /// </summary>
    private sealed class Sender
    {
        private readonly Lock _lock = new();
        private readonly List<int[]> _sent = [];
        private readonly TaskCompletionSource _started = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private TaskCompletionSource? _gate;
        private bool _broke;

        public int? ConflictOn { get; init; }

        public int? BrokenOn { get; init; }

        public Task Started => _started.Task;

        public List<int[]> Sent
        {
            get
            {
                lock (_lock)
                {
                    return [.. _sent];
                }
            }
        }

        /// <summary>The first call waits until the returned source is set.</summary>
        public TaskCompletionSource Hold() => _gate = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public GroupCommit<int, int> Commit(int writers = 1, int maxBatch = 256) => new(
            new GroupCommitOptions { Writers = writers, MaxBatch = maxBatch },
            Comparer<int>.Default,
            SendAsync,
            ex => ex is ConflictException ? "conflict" : null,
            NullLogger.Instance);

        private async Task<int[]> SendAsync(IReadOnlyList<int> batch)
        {
            lock (_lock)
            {
                _sent.Add([.. batch]);
            }
            _started.TrySetResult();
            if (Interlocked.Exchange(ref _gate, null) is { } gate)
            {
                await gate.Task;
            }
            if (ConflictOn is { } bad && batch.Contains(bad))
            {
                throw new ConflictException();
            }
            if (BrokenOn is { } broken && batch.Contains(broken) && !_broke)
            {
                _broke = true;
                throw new IOException("connection reset");
            }
            return [.. batch.Select(o => o * 10)];
        }
    }
}
