using System.Collections.Concurrent;
using System.Diagnostics;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using RabbitMQ.Client;
using Slots.Sms.RabbitMq;
using Slots.Sms.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Sms.Tests;

/// <summary>
/// Three RabbitMQ nodes, one cluster, the quorum queue slots.sms on all three, and
/// ConnectionStrings:RabbitMq naming every node: the node leading the queue dies (SIGKILL of its
/// Erlang VM) while the relay publishes with confirms.
/// </summary>
public sealed class RabbitMqClusterTests
{
    private const string Queue = "slots.sms";
    private const int Total = 600;
    private const int KillAfter = 200;
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(90);

    [Fact]
    public async Task Queue_leader_killed_mid_burst_loses_no_confirmed_message_and_each_sms_goes_out_once()
    {
        var run = Stopwatch.StartNew();
        await using var cluster = await Rabbit.OrSkipAsync(() => RabbitMqCluster.CreateAsync(3));
        var formed = run.Elapsed;
        var clock = new ConfirmClock(KillAfter);
        var sender = new RecordingSender();
        await using var world = await SmsWorld.StartAsync(Backend.Sqlite, cluster.ConnectionString, sender, new Dictionary<string, string?>
        {
            ["Slots:Sms:Queue"] = Queue,
            // Small batches: publishing spans the kill, and a wave in flight is a few messages.
            ["Slots:Sms:RelayBatchSize"] = "10",
            ["Slots:Sms:Prefetch"] = "16",
        }, wrapTransport: clock.Around);

        // One message first: the relay connects to a node of the list, declares the queue there, and
        // a quorum queue's leader starts on the declaring client's node. So the kill below takes the
        // relay's connection too, and the relay has to reconnect to another node of the list. The
        // leader is asked for now: a CLI call takes a while, publishing would be over.
        var broker = world.Services.GetRequiredService<SmsBroker>();
        await world.BurstAsync(1);
        await world.DrainAsync(Patience);
        var leader = await cluster.LeaderOfAsync(Queue);
        await world.BurstAsync(Total - 1, offset: 1);

        using var stop = new CancellationTokenSource();
        // The scheduler's trigger: the relay job every 100 ms, on its own, through everything below.
        var job = Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                await world.Job.DrainAsync(CancellationToken.None);
                await Task.Delay(100);
            }
        });
        long killedAt;
        int unsentAtKill;
        try
        {
            await clock.Reached.WaitAsync(Patience);
            killedAt = Stopwatch.GetTimestamp();
            leader.KillVm();
            unsentAtKill = await world.UnsentAsync();
            var drained = await Poll.TryUntilAsync(async () => await world.UnsentAsync() == 0, Patience);
            Assert.True(drained, $"the outbox did not drain after the kill: {await world.UnsentAsync()} rows unsent; {clock.Describe(killedAt)}; the host logged:\n"
                + string.Join("\n", world.Log.Lines));
        }
        finally
        {
            await stop.CancelAsync();
            await job;
        }
        var relayed = run.Elapsed;
        var afterKill = clock.FirstConfirmAfter(killedAt);
        var newLeader = await cluster.LeaderOfAsync(Queue);
        var queued = await ReadQueueAsync(broker);

        await world.StartConsumerAsync();
        await sender.WaitForAsync(Total, Patience);
        await Task.Delay(500); // anything doubled would arrive now
        await Poll.UntilAsync(async () => await Rabbit.ReadyAsync(broker) == 0, Patience, "the consumer did not empty the queue");
        var ids = await world.MessageIdsAsync();

        Rabbit.Report($"cluster of 3 formed in {formed.TotalSeconds:F1} s; leader {leader.NodeName} SIGKILLed after {KillAfter} confirms, {unsentAtKill} outbox rows still unsent");
        Rabbit.Report($"kill -> first confirm of a wave published after it: {(afterKill is { } t ? $"{t.TotalMilliseconds:F0} ms" : "none")}; " +
            $"breaks (a wave or the depth query) {clock.Broken}, messages not confirmed on their first try {clock.Refused}; new leader {newLeader.NodeName}");
        Rabbit.Report($"queue after relaying: {queued.Count} messages ({queued.Distinct().Count()} distinct) for {Total} rows; gateway calls {sender.Calls.Values.Sum()}; test took {run.Elapsed.TotalSeconds:F1} s (relay done at {relayed.TotalSeconds:F1} s)");
        Assert.True(unsentAtKill > 0, "the relay had published everything before the kill");
        Assert.NotNull(afterKill);
        Assert.True(clock.Broken > 0, "the relay's connection was not on the leader; the kill never made it reconnect");
        Assert.NotEqual(leader, newLeader);
        Assert.False(leader.Running);
        // Every row is marked sent only on a confirm: all were confirmed, so all are in the queue
        // (copies allowed: a confirm lost with its connection means the row is published again).
        Assert.Equal(ids.Select(Id).Order(), queued.Distinct().Order());
        // The exactly-once contract is the consumer's: each SMS out once, copies stopped at sms_sent.
        Assert.Equal(Total, sender.Sent.Count);
        Assert.All(sender.Sent.Values, n => Assert.Equal(1, n));
        Assert.Equal(ids.Order(), sender.Sent.Keys.Order());
    }

    private static string Id(long id) => id.ToString(System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>
    /// The message ids in the queue, read the way the consumer reads (fetched unacked, so they all
    /// go back when the channel closes). Not rabbitmqctl's count: right after a leader change it
    /// said 0 for a queue holding 600 messages.
    /// </summary>
    private static async Task<List<string>> ReadQueueAsync(SmsBroker broker)
    {
        await using var connection = await broker.ConnectAsync("slots-test-reader", CancellationToken.None);
        await using var channel = await connection.CreateChannelAsync();
        var ids = new List<string>();
        while (await channel.BasicGetAsync(Queue, autoAck: false) is { } got)
        {
            ids.Add(got.BasicProperties.MessageId ?? "");
        }
        await channel.CloseAsync();
        return ids;
    }

    /// <summary>Around the product's transport: when each wave started and came back, and what the broker confirmed of it.</summary>
    private sealed class ConfirmClock(int threshold) : IOutboxTransport
    {
        private readonly ConcurrentQueue<(long Started, long Finished, int Confirmed)> _waves = new();
        private readonly TaskCompletionSource _reached = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly Lock _counts = new();
        private IOutboxTransport? _inner;
        private int _confirmed;
        private int _broken;
        private int _refused;
        private long _inFlightSince;

        /// <summary>Completes once <c>threshold</c> messages were confirmed.</summary>
        public Task Reached => _reached.Task;

        public int Broken => _broken;

        public int Refused { get { lock (_counts) { return _refused; } } }

        public ConfirmClock Around(IOutboxTransport inner)
        {
            _inner = inner;
            return this;
        }

        public async Task<HandOver> HandOverAsync(IReadOnlyList<SmsEvent> wave, CancellationToken ct)
        {
            var started = Stopwatch.GetTimestamp();
            Interlocked.Exchange(ref _inFlightSince, started);
            var result = await _inner!.HandOverAsync(wave, ct);
            Interlocked.Exchange(ref _inFlightSince, 0);
            _waves.Enqueue((started, Stopwatch.GetTimestamp(), result.Accepted.Count));
            if (result.Broken is not null)
            {
                Interlocked.Increment(ref _broken);
            }
            bool reached;
            lock (_counts)
            {
                _refused += wave.Count - result.Accepted.Count;
                _confirmed += result.Accepted.Count;
                reached = _confirmed >= threshold;
            }
            if (reached)
            {
                _reached.TrySetResult();
            }
            return result;
        }

        /// <summary>The relay asks the queue's depth before each batch: after the kill that question may be what meets the break.</summary>
        public async Task<TransportRoom> RoomAsync(CancellationToken ct)
        {
            var room = await _inner!.RoomAsync(ct);
            if (room.Broken is not null)
            {
                Interlocked.Increment(ref _broken);
            }
            return room;
        }

        public ValueTask ResetAsync() => _inner!.ResetAsync();

        /// <summary>What the relay did after the kill, for a failure message.</summary>
        public string Describe(long killedAt)
        {
            var after = _waves.Where(w => w.Started >= killedAt).ToList();
            var since = Interlocked.Read(ref _inFlightSince);
            return $"{after.Count} waves handed over after the kill, {after.Sum(w => w.Confirmed)} messages confirmed in them, " +
                $"{_broken} broken in all, last wave back {(after.Count == 0 ? "never" : $"{Stopwatch.GetElapsedTime(after.Max(w => w.Finished)).TotalSeconds:F1} s ago")}, " +
                $"{(since == 0 ? "no wave in flight" : $"a wave in flight for {Stopwatch.GetElapsedTime(since).TotalSeconds:F1} s")}";
        }

        /// <summary>
        /// From the kill to the return of the first wave that was published after it and confirmed
        /// (a wave in flight at the kill may hold confirms from before it, so it does not count).
        /// </summary>
        public TimeSpan? FirstConfirmAfter(long killedAt) =>
            _waves.Where(w => w.Started >= killedAt && w.Confirmed > 0).Select(w => (long?)w.Finished).Min() is { } first
                ? Stopwatch.GetElapsedTime(killedAt, first)
                : null;
    }
}
