using System.Net;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Reservations;

/// <summary>
/// The per-code guessing limit (#39), on every backend: after 5 wrong phones or national ids for one
/// booking code within an hour, that code answers 429 with Retry-After to everyone, the right proof
/// included, so a leaked code is not a way to guess the person. The count lives in the database:
/// it holds across API instances.
/// </summary>
public abstract class WrongProofContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private Task<IReadOnlyDictionary<string, string?>> DatabaseAsync() =>
        CreateDatabaseAsync("wp");

    [Fact]
    public async Task A_code_that_took_five_wrong_proofs_on_two_instances_answers_429_even_to_the_right_phone()
    {
        var settings = await DatabaseAsync();
        await using var first = new SlotsHost(settings);
        await using var second = new SlotsHost(settings);
        var (client, other) = (first.Client(), second.Client());
        var place = await CreatePlaceWithSlotsAsync(first.AdminClient(), capacity: 2);
        var person = People.Next();
        var neighbour = People.Next();
        var code = await BookAsync(client, place, "08:10", person);
        var neighbourCode = await BookAsync(client, place, "08:20", neighbour);

        for (var i = 0; i < 5; i++)
        {
            // Wrong phones and wrong national ids alike, from either instance.
            var guess = i % 2 == 0
                ? WithPhone(HttpMethod.Get, $"/api/reservations/{code}", $"+42060100{i:0000}")
                : new HttpRequestMessage(HttpMethod.Get, $"/api/reservations/{code}") { Headers = { { "Slots-National-Id", $"ZZ{i:000000}" } } };
            Assert.Equal(HttpStatusCode.NotFound, (await (i < 3 ? client : other).SendAsync(guess)).StatusCode);
        }
        var right = await other.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone));
        var cancel = await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone));

        Assert.Equal((HttpStatusCode)429, right.StatusCode);
        Assert.Equal("wrong-proof-limit", await ProblemCodeAsync(right));
        var retryAfter = right.Headers.RetryAfter!.Delta!.Value;
        Assert.InRange(retryAfter, TimeSpan.FromMinutes(55), TimeSpan.FromHours(1));
        Assert.Equal((HttpStatusCode)429, cancel.StatusCode);
        // The limit is the code's, not the client's: the neighbour's booking answers its owner.
        Assert.Equal(HttpStatusCode.OK, (await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{neighbourCode}", neighbour.Phone))).StatusCode);
    }

    [Fact]
    public async Task Four_wrong_proofs_leave_the_code_answering_and_the_limit_lifts_when_they_leave_the_window()
    {
        var settings = await DatabaseAsync();
        await using var host = new SlotsHost(settings, new Dictionary<string, string?> { ["Slots:WrongProofs:Window"] = "00:00:08" });
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);
        var person = People.Next();
        var code = await BookAsync(client, place, "08:10", person);

        for (var i = 0; i < 4; i++)
        {
            Assert.Equal(HttpStatusCode.NotFound, (await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", $"+42060100{i:0000}"))).StatusCode);
        }
        Assert.Equal(HttpStatusCode.OK, (await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone))).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", "+420601009999"))).StatusCode);
        var closed = await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone));
        Assert.Equal((HttpStatusCode)429, closed.StatusCode);
        Assert.InRange(closed.Headers.RetryAfter!.Delta!.Value, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(8));

        await Task.Delay(closed.Headers.RetryAfter.Delta.Value + TimeSpan.FromSeconds(1.5), TestContext.Current.CancellationToken);

        Assert.Equal(HttpStatusCode.OK, (await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone))).StatusCode);
    }

    private static async Task<string> BookAsync(HttpClient client, int place, string time, Person person)
    {
        var booked = await client.SendAsync(Reserve(place, Today.AddDays(2), time, person));
        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        return (await JsonAsync(booked))["code"]!.GetValue<string>();
    }
}
