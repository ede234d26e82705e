using System.Net;
using System.Net.Http.Json;
using Slots.LoadTest.Data;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Tests;

/// <summary>The EF Core baseline must be correct for the comparison to mean anything: races decided by its concurrency tokens.</summary>
public sealed class BaselineTests
{
    private static readonly SeedOptions OneSlotADay = new(Places: 1, Days: 3, FirstMinute: 9 * 60, LastMinute: 9 * 60, Interval: 15, Length: 15, Capacity: 3, Zone: "Europe/Bratislava");

    private static string Tomorrow => Catalog.Day(DateOnly.FromDateTime(TimeZoneInfo.ConvertTime(DateTimeOffset.UtcNow,
        TimeZoneInfo.FindSystemTimeZoneById("Europe/Bratislava")).DateTime).AddDays(1));

    private static HttpRequestMessage Reserve(string path, string day, int person) => new(HttpMethod.Post, path)
    {
        Headers = { { "Idempotency-Key", $"baseline-test-{Guid.NewGuid():N}" } },
        Content = JsonContent.Create(new { placeId = 1, day, time = "09:00", name = $"Racer {person}", phone = "+421905000001", nationalId = $"RACE{person:D6}", language = "sk" }),
    };

    [Fact]
    public async Task Thirty_racers_for_three_seats_get_exactly_three_reservations_and_twenty_seven_slot_full()
    {
        await using var host = new ApiHost();
        host.Start();
        await Seeder.RunAsync(Provider.Sqlite, host.ConnectionString, OneSlotADay, TestContext.Current.CancellationToken);
        using var client = host.CreateClient();

        var answers = await Task.WhenAll(Enumerable.Range(0, 30).Select(i => client.SendAsync(Reserve("/api/benchmark/reservations", Tomorrow, i))));

        Assert.Equal(3, answers.Count(a => a.StatusCode == HttpStatusCode.Created));
        Assert.Equal(27, answers.Count(a => a.StatusCode == HttpStatusCode.Conflict));
        var audit = await Audit.RunAsync(Provider.Sqlite, host.ConnectionString, [], TestContext.Current.CancellationToken);
        Assert.Equal(3, audit.HotReservations);
        Assert.Equal(3, audit.ReservedOutboxRows);
        Assert.True(audit.Passed);
    }

    [Fact]
    public async Task One_person_racing_for_two_days_gets_one_reservation()
    {
        await using var host = new ApiHost();
        host.Start();
        await Seeder.RunAsync(Provider.Sqlite, host.ConnectionString, OneSlotADay, TestContext.Current.CancellationToken);
        using var client = host.CreateClient();
        var dayAfter = Catalog.Day(DateOnly.Parse(Tomorrow, System.Globalization.CultureInfo.InvariantCulture).AddDays(1));

        var answers = await Task.WhenAll(Enumerable.Range(0, 10).Select(i =>
            client.SendAsync(Reserve("/api/benchmark/reservations", i % 2 == 0 ? Tomorrow : dayAfter, person: 7))));

        Assert.Equal(1, answers.Count(a => a.StatusCode == HttpStatusCode.Created));
        var audit = await Audit.RunAsync(Provider.Sqlite, host.ConnectionString, [], TestContext.Current.CancellationToken);
        Assert.Equal(0, audit.PersonsWithTwoActive);
        Assert.Equal(1, audit.HotReservations);
    }

    [Fact]
    public async Task Without_the_switch_the_benchmark_endpoints_do_not_exist()
    {
        await using var host = new ApiHost(benchmark: false);
        host.Start();
        using var client = host.CreateClient();

        using var baseline = await client.SendAsync(Reserve("/api/benchmark/reservations", Tomorrow, 1));
        using var noop = await client.SendAsync(Reserve("/api/benchmark/noop", Tomorrow, 1));
        using var unmapped = await client.SendAsync(Reserve("/api/no-such-endpoint", Tomorrow, 1));

        // Whatever the host answers for a path nobody mapped (the SPA fallback makes it 405 for POST).
        Assert.True((int)unmapped.StatusCode is 404 or 405, unmapped.StatusCode.ToString());
        Assert.Equal(unmapped.StatusCode, baseline.StatusCode);
        Assert.Equal(unmapped.StatusCode, noop.StatusCode);
    }
}
