using System.Collections.Concurrent;

namespace Slots.LoadTest.Simulation;

/// <summary>
/// Starts virtual users on the arrival curve (open) or as a fixed crowd (closed), within hard
/// bounds: no new user after the duration or past MaxUsers, never more than MaxInFlight at once
/// sending or reading (users asleep in Retry-After do not count: <see cref="ActiveUsers"/>; an
/// arrival beyond that is counted as not started, so a generator that cannot keep up says so),
/// and every user gone by duration + give-up + a short grace.
/// A closed crowd is the throughput runs' load: MaxInFlight lanes, each keeping its source address,
/// target and random stream for the whole run and starting its next user as the last one ends, so
/// the crowd holds one keep-alive connection per lane (as wrk does) and a request costs the
/// generator little more than HttpClient's own work.
/// </summary>
public sealed class Simulator(SimulationOptions options)
{
    private static readonly TimeSpan Grace = TimeSpan.FromSeconds(5);

    /// <param name="firstUser">The first user's number: a run after a warm-up numbers on from it, so no key or person id is used twice.</param>
    public async Task<Recorder> RunAsync(SourceAddresses sources, Catalog catalog, CancellationToken ct, long firstUser = 0)
    {
        var recorder = new Recorder();
        using var runEnd = CancellationTokenSource.CreateLinkedTokenSource(ct);
        runEnd.CancelAfter(options.Duration + options.GiveUp + Grace);
        var users = new ConcurrentDictionary<long, Task>();
        var next = firstUser;

        Task StartUser(ActiveUsers active)
        {
            var n = Interlocked.Increment(ref next) - 1;
            recorder.UserStarted();
            var user = new VirtualUser(n, options, catalog, sources.For(n), options.Targets[(int)(n % options.Targets.Count)], recorder, active);
            return user.RunAsync(runEnd.Token);
        }

        if (options.Mode == Mode.Closed)
        {
            var workers = Enumerable.Range(0, options.MaxInFlight).Select(lane => Task.Run(async () =>
            {
                var client = sources.For(lane);
                var target = options.Targets[lane % options.Targets.Count];
                var rng = new Random(HashCode.Combine(options.Seed, lane, firstUser));
                while (recorder.Elapsed < options.Duration && Interlocked.Read(ref next) - firstUser < options.MaxUsers && !runEnd.IsCancellationRequested)
                {
                    var n = Interlocked.Increment(ref next) - 1;
                    recorder.UserStarted();
                    await new VirtualUser(n, options, catalog, client, target, recorder, rng: rng).RunAsync(runEnd.Token);
                }
            }, CancellationToken.None));
            await Task.WhenAll(workers);
            recorder.Finish();
            return recorder;
        }

        var active = new ActiveUsers(options.MaxInFlight);
        long arrived = 0;
        while (recorder.Elapsed < options.Duration && arrived < options.MaxUsers && !runEnd.IsCancellationRequested)
        {
            var due = Math.Min(options.Arrivals.ArrivalsBy(recorder.Elapsed), options.MaxUsers);
            for (; arrived < due; arrived++)
            {
                if (!active.TryStart())
                {
                    recorder.UserNotStarted();
                    continue;
                }
                var id = arrived;
                users[id] = Task.Run(async () =>
                {
                    try
                    {
                        await StartUser(active);
                    }
                    finally
                    {
                        active.Left();
                        users.TryRemove(id, out _);
                    }
                }, CancellationToken.None);
            }
            await Task.Delay(TimeSpan.FromMilliseconds(2), CancellationToken.None);
        }
        await Task.WhenAll(users.Values.ToArray());
        recorder.Finish();
        return recorder;
    }
}
