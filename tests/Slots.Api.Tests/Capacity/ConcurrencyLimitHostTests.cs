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

    [Fact]
    public async Task The_agent_tells_HAProxy_the_learnt_limit_and_its_headroom_as_the_instance_s_maxconn()
    {
        var port = Slots.Topology.Run.ChildProcess.FreePort();
        var host = await StartAsync(new Dictionary<string, string?>
        {
            ["Slots:ConcurrencyLimit:Agent"] = $"127.0.0.1:{port}",
            ["Slots:ConcurrencyLimit:MinLimit"] = "12",
            ["Slots:ConcurrencyLimit:InitialLimit"] = "12",
            ["Slots:ConcurrencyLimit:MaxLimit"] = "12",
            ["Slots:ConcurrencyLimit:AgentHeadroom"] = "5",
        });
        host.Client();   // the host starts on first use, its agent with it

        Assert.Equal("maxconn:17\n", await AskAgentAsync(port));
    }

    [Fact]
    public async Task An_agent_address_without_a_port_stops_the_host_at_start_naming_the_key()
    {
        var host = await StartAsync(new Dictionary<string, string?>
        {
            ["Slots:ConcurrencyLimit:Agent"] = "127.0.0.1",
        });

        var error = Assert.ThrowsAny<Exception>(() => host.Client());

        Assert.Contains("Slots:ConcurrencyLimit", error.ToString());
    }

    /// <summary>What HAProxy's agent check reads: one line, then the agent closes the connection.</summary>
    private static async Task<string> AskAgentAsync(int port)
    {
        var ct = TestContext.Current.CancellationToken;
        for (var attempt = 0; ; attempt++)
        {
            try
            {
                using var client = new System.Net.Sockets.TcpClient();
                await client.ConnectAsync(IPAddress.Loopback, port, ct);
                using var reader = new StreamReader(client.GetStream());
                return await reader.ReadToEndAsync(ct);
            }
            catch (System.Net.Sockets.SocketException) when (attempt < 50)
            {
                await Task.Delay(100, ct);   // the agent starts listening with the host
            }
        }
    }
}
