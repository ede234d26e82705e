using System.Collections.Concurrent;

namespace Slots.LoadTest.Simulation;

/// <summary>
/// Starts virtual users on the arrival curve (open) or as a fixed crowd (closed), within hard
/// bounds: no new user after the duration or past MaxUsers, never more than MaxInFlight at once
/// sending or reading (users asleep in Retry-After do not count: <see cref="ActiveUsers"/>; an
/// arrival beyond that is counted as not started, so a generator that cannot keep up says so),
/// and every user gone by duration + give-up + a short grace.
/// </summary>
public sealed class Simulator(SimulationOptions options)
{
    private static readonly TimeSpan Grace = TimeSpan.FromSeconds(5);

    public async Task<Recorder> RunAsync(SourceAddresses sources, Catalog catalog, CancellationToken ct)
    {
        var recorder = new Recorder();
        using var runEnd = CancellationTokenSource.CreateLinkedTokenSource(ct);
        runEnd.CancelAfter(options.Duration + options.GiveUp + Grace);
        var users = new ConcurrentDictionary<long, Task>();
        long next = 0;

        Task StartUser(ActiveUsers? active = null)
        {
            var n = Interlocked.Increment(ref next) - 1;
            recorder.UserStarted();
            var user = new VirtualUser(n, options, catalog, sources.For(n), options.Targets[(int)(n % options.Targets.Count)], recorder, active);
            return user.RunAsync(runEnd.Token);
        }

        if (options.Mode == Mode.Closed)
        {
            var workers = Enumerable.Range(0, options.MaxInFlight).Select(_ => Task.Run(async () =>
            {
                while (recorder.Elapsed < options.Duration && Interlocked.Read(ref next) < options.MaxUsers && !runEnd.IsCancellationRequested)
                {
                    await StartUser();
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
