using System.Diagnostics;
using System.Net;

namespace Slots.Stack.Tests.Infrastructure;

/// <summary>
/// Steady booking traffic: one worker per client address, each booking a new person after the
/// last one was answered (retrying on 429/5xx with the same key) and a short pause, until stopped.
/// </summary>
public sealed class Traffic : IDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Booking> _bookings = [];
    private readonly Task[] _workers;

    /// <param name="pause">Between one worker's bookings: keeps the seats of a test place from running out.</param>
    public Traffic(Clients clients, int place, TimeSpan pause)
    {
        _workers = Enumerable.Range(0, clients.Count).Select(i => Task.Run(async () =>
        {
            var n = 0;
            while (!_stop.IsCancellationRequested)
            {
                var booking = new Booking(place, Places.BookableDay, Places.Times[(i + n++) % Places.Times.Length], Places.NextPerson());
                lock (_bookings)
                {
                    _bookings.Add(booking);
                }
                // Bounded: 200 tries a quarter second apart outlast any outage in these tests.
                await booking.SendUntilAnsweredAsync(clients[i], maxAttempts: 200, maxWait: TimeSpan.FromMilliseconds(250));
                await Task.Delay(pause);
            }
        })).ToArray();
    }

    /// <summary>How long after <paramref name="sinceMs"/> (Booking.NowMs) the first 201 came for an attempt sent after it.</summary>
    public async Task<TimeSpan> FirstCreatedSentAfterAsync(long sinceMs, TimeSpan limit)
    {
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < limit)
        {
            Attempt? first;
            lock (_bookings)
            {
                first = _bookings.SelectMany(b => b.Attempts)
                    .Where(a => a.SentAtMs >= sinceMs && a.Status == HttpStatusCode.Created)
                    .MinBy(a => a.SentAtMs + a.Latency.TotalMilliseconds);
            }
            if (first is not null)
            {
                return TimeSpan.FromMilliseconds(first.SentAtMs + first.Latency.TotalMilliseconds - sinceMs);
            }
            await Task.Delay(20);
        }
        throw new TimeoutException($"No booking succeeded within {limit.TotalSeconds} s of the restart.");
    }

    /// <summary>Stops starting new bookings, lets the ones under way finish, and returns them all.</summary>
    public async Task<IReadOnlyList<Booking>> StopAsync()
    {
        await _stop.CancelAsync();
        await Task.WhenAll(_workers);
        lock (_bookings)
        {
            return _bookings.ToArray();
        }
    }

    public void Dispose()
    {
        _stop.Cancel();
        _stop.Dispose();
    }
}
