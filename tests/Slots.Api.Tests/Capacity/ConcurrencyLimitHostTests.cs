using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Slots.Api.Tests.Api;
using Slots.Capacity;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Capacity;

/// <summary>The limit in the real host: a booking past it is told 429 overloaded at once; reads are not guarded.</summary>
public sealed class ConcurrencyLimitHostTests : ApiTestBase
{
    [Fact]
    public async Task A_booking_past_the_limit_gets_429_overloaded_with_retry_after_and_one_within_it_is_booked()
    {
        var host = await StartAsync(new Dictionary<string, string?>
        {
            ["Slots:ConcurrencyLimit:MinLimit"] = "1",
            ["Slots:ConcurrencyLimit:InitialLimit"] = "1",
            ["Slots:ConcurrencyLimit:MaxLimit"] = "1",
        });
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 5);
        var limit = host.Services.GetRequiredService<ConcurrencyLimit>();
        // The one place in flight is taken, as by a booking still running.
        Assert.True(limit.TryAcquire(out var held));

        var turnedAway = await client.SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next()));
        var read = await client.GetAsync($"/api/places/{place}/availability?from={Today.AddDays(2):yyyy-MM-dd}&to={Today.AddDays(2):yyyy-MM-dd}");
        limit.Release(held);
        var booked = await client.SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next()));

        Assert.Equal(HttpStatusCode.TooManyRequests, turnedAway.StatusCode);
        Assert.Equal("overloaded", await ProblemCodeAsync(turnedAway));
        Assert.Equal(TimeSpan.FromSeconds(1), turnedAway.Headers.RetryAfter?.Delta);
        Assert.Equal(HttpStatusCode.OK, read.StatusCode);
        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        Assert.Equal(0, limit.InFlight);
    }

    [Fact]
    public async Task A_floor_of_zero_stops_the_host_at_start_naming_the_key()
    {
        var host = await StartAsync(new Dictionary<string, string?>
        {
            ["Slots:ConcurrencyLimit:MinLimit"] = "0",
        });

        var error = Assert.ThrowsAny<Exception>(() => host.Client());   // the host starts on first use

        Assert.Contains("Slots:ConcurrencyLimit", error.ToString());
    }
}
