using System.Net;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Tests;

public sealed class ActiveUsersTests
{
    [Fact]
    public void The_bound_counts_active_users_and_a_sleeping_one_makes_room_until_it_wakes()
    {
        var active = new ActiveUsers(2);

        Assert.True(active.TryStart());
        Assert.True(active.TryStart());
        Assert.False(active.TryStart());

        active.Sleeping();
        Assert.True(active.TryStart());
        active.Woke();
        Assert.Equal(3, active.Count);
        Assert.False(active.TryStart());

        active.Left();
        active.Left();
        Assert.True(active.TryStart());
    }

    [Fact]
    public async Task A_user_told_to_retry_after_three_seconds_is_not_counted_while_it_waits()
    {
        // Three seconds, not one: on a starved test machine the checks below may run a second late,
        // and they must still find the user asleep.
        var active = new ActiveUsers(1);
        var counts = new List<int>();
        var handler = new Answering(() =>
        {
            lock (counts)
            {
                counts.Add(active.Count);
            }
            var busy = new HttpResponseMessage(HttpStatusCode.TooManyRequests);
            busy.Headers.Add("Retry-After", "3");
            return busy;
        });
        using var client = new HttpClient(handler);
        var options = new SimulationOptions
        {
            Targets = [new Uri("http://127.0.0.1:9")],
            Flow = Flow.Reserve,
            GiveUp = TimeSpan.FromSeconds(5),
            MaxJitter = TimeSpan.FromMilliseconds(1),
        };
        var catalog = new Catalog([new PlaceItem(1, "Place", "Europe/Bratislava", true)], ["09:00"], new DateOnly(2026, 11, 23), 1, 1, 1.0);
        Assert.True(active.TryStart());

        var user = new VirtualUser(0, options, catalog, client, options.Targets[0], new Recorder(), active).RunAsync(CancellationToken.None);
        await WaitUntil(() => handler.Calls >= 1);
        await WaitUntil(() => active.Count == 0);
        Assert.True(active.TryStart(), "an arrival starts while the first user sleeps");
        Assert.Equal(1, handler.Calls); // still asleep: it has not sent again yet
        active.Left();
        await user;
        active.Left();

        Assert.Equal(0, active.Count);
        Assert.True(handler.Calls >= 2);
        Assert.All(counts, c => Assert.Equal(1, c));
    }

    private static async Task WaitUntil(Func<bool> condition)
    {
        var limit = System.Diagnostics.Stopwatch.StartNew();
        while (!condition() && limit.Elapsed < TimeSpan.FromSeconds(10))
        {
            await Task.Delay(10);
        }
        Assert.True(condition());
    }

    private sealed class Answering(Func<HttpResponseMessage> answer) : HttpMessageHandler
    {
        private int _calls;

        public int Calls => Volatile.Read(ref _calls);

        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            Interlocked.Increment(ref _calls);
            return Task.FromResult(answer());
        }
    }
}
