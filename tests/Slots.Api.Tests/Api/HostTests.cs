using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Slots.Reservations;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Api;

public sealed class HostTests : ApiTestBase
{
    [Fact]
    public async Task Health_probes_and_the_openapi_document_answer()
    {
        var client = (await StartAsync()).Client();

        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/health/live")).StatusCode);
        Assert.Equal("Healthy", await client.GetStringAsync("/health/ready"));
        var openApi = await client.GetFromJsonAsync<JsonObject>("/openapi/v1.json");
        Assert.True(openApi!["paths"]!.AsObject().ContainsKey("/api/reservations"));
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync("/api/no-such-thing")).StatusCode);
    }

    [Fact]
    public async Task Over_the_write_limit_a_client_gets_429_with_retry_after()
    {
        var host = await StartAsync(new Dictionary<string, string?>
        {
            ["Slots:RateLimits:WritesPerWindow"] = "2",
            ["Slots:RateLimits:Window"] = "00:00:30",
        });
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 5);

        var responses = new List<HttpResponseMessage>();
        for (var i = 0; i < 4; i++)
        {
            responses.Add(await client.SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next())));
        }

        Assert.Equal(2, responses.Count(r => r.StatusCode == HttpStatusCode.Created));
        var limited = responses.Where(r => r.StatusCode == HttpStatusCode.TooManyRequests).ToList();
        Assert.Equal(2, limited.Count);
        Assert.All(limited, r => Assert.InRange(r.Headers.RetryAfter!.Delta!.Value.TotalSeconds, 1, 30));
        Assert.Equal("rate-limited", await ProblemCodeAsync(limited[0]));
    }

    [Fact]
    public async Task A_repeat_while_the_first_is_still_running_gets_409_with_retry_after()
    {
        var gate = new TaskCompletionSource();
        var host = await StartAsync(
            new Dictionary<string, string?> { ["Slots:Reservations:InFlightWait"] = "00:00:00.200" },
            services => services.Decorate(gate.Task));
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 5);
        var person = People.Next();

        var first = client.SendAsync(Reserve(place, Today.AddDays(2), "08:00", person, key: "slow-key-0001"));
        await Task.Delay(300);
        var repeat = await client.SendAsync(Reserve(place, Today.AddDays(2), "08:00", person, key: "slow-key-0001"));
        gate.SetResult();

        Assert.Equal(HttpStatusCode.Conflict, repeat.StatusCode);
        Assert.Equal("request-in-progress", await ProblemCodeAsync(repeat));
        Assert.NotNull(repeat.Headers.RetryAfter);
        Assert.Equal(HttpStatusCode.Created, (await first).StatusCode);
    }

    [Fact]
    public async Task A_database_that_fails_is_answered_503_with_retry_after()
    {
        var host = await StartAsync(services: services => services.Decorate(failure: true));
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 5);

        var response = await client.SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next()));

        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        Assert.Equal("database-unavailable", await ProblemCodeAsync(response));
        Assert.NotNull(response.Headers.RetryAfter);
    }

    [Fact]
    public async Task A_driver_connection_disposed_under_a_command_is_answered_503_not_500()
    {
        // What Npgsql threw during a primary's failover: a connector broken and disposed while a command used it.
        var host = await StartAsync(services: services => services.Decorate(throws: DisposedInsideTheDriver));
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 5);

        var response = await client.SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next()));

        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        Assert.Equal("database-unavailable", await ProblemCodeAsync(response));
        Assert.NotNull(response.Headers.RetryAfter);
    }

    [Fact]
    public async Task An_object_disposed_in_our_own_code_is_still_a_bug()
    {
        var host = await StartAsync(services: services => services.Decorate(throws: () => new ObjectDisposedException("booking")));
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 5);

        var response = await client.SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next()));

        Assert.Equal(HttpStatusCode.InternalServerError, response.StatusCode);
        Assert.Equal("internal-error", await ProblemCodeAsync(response));
    }

    /// <summary>A real ObjectDisposedException thrown by Npgsql's own code, with its frames.</summary>
    private static Exception DisposedInsideTheDriver()
    {
        var connection = new Npgsql.NpgsqlConnection("Host=127.0.0.1");
        connection.Dispose();
        try
        {
            connection.Open();
        }
        catch (ObjectDisposedException ex)
        {
            return ex;
        }
        throw new InvalidOperationException("Npgsql opened a disposed connection.");
    }
}

/// <summary>Wraps the real store to hold reservations at a gate or fail them like a lost database.</summary>
internal static class StoreFaults
{
    public static void Decorate(this IServiceCollection services, Task? gate = null, bool failure = false, Func<Exception>? throws = null)
    {
        var real = services.Single(d => d.ServiceType == typeof(IReservationStore));
        services.RemoveAll<IReservationStore>();
        services.AddSingleton<IReservationStore>(sp =>
            new FaultyStore((IReservationStore)(real.ImplementationFactory?.Invoke(sp) ?? ActivatorUtilities.CreateInstance(sp, real.ImplementationType!)), gate, failure, throws));
    }

    private sealed class FaultyStore(IReservationStore inner, Task? gate, bool failure, Func<Exception>? throws) : IReservationStore
    {
        public async ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct)
        {
            if (failure)
            {
                throw new Microsoft.Data.Sqlite.SqliteException("database is gone", 10);
            }
            if (throws is not null)
            {
                // Rethrown with its own frames (where it was first thrown), as a driver's exception arrives.
                var thrown = throws();
                if (thrown.StackTrace is null)
                {
                    throw thrown;
                }
                System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(thrown);
            }
            if (gate is not null)
            {
                await gate;
            }
            return await inner.ReserveAsync(command, ct);
        }

        public ValueTask<CancelStatus> CancelAsync(CancelCommand command, CancellationToken ct) => inner.CancelAsync(command, ct);
        public ValueTask<RescheduleStatus> RescheduleAsync(RescheduleCommand command, CancellationToken ct) => inner.RescheduleAsync(command, ct);
        public Task<ReservationDetails?> FindAsync(string code, CancellationToken ct) => inner.FindAsync(code, ct);
        public Task<IReadOnlyList<SlotAvailability>> GetAvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct) =>
            inner.GetAvailabilityAsync(placeId, from, to, ct);
        public Task<bool> PingAsync(CancellationToken ct) => inner.PingAsync(ct);
    }
}
