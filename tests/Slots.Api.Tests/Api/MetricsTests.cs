using System.Net;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Api;

/// <summary>
/// /metrics on the embedded default. These run beside the other tests' hosts: each host exports
/// only the meters its own services made (the second test holds that).
/// </summary>
public sealed class MetricsTests : ApiTestBase
{
    [Fact]
    public async Task Metrics_serve_the_slots_meters_after_a_booking_without_personal_data()
    {
        var host = await StartAsync();
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);
        var day = Today.AddDays(2);
        var booker = People.Next();
        var booked = await client.SendAsync(Reserve(place, day, "08:00", booker));
        var full = await client.SendAsync(Reserve(place, day, "08:00", People.Next()));
        await FreeSeatsAsync(client, place, day, "08:10");
        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        Assert.Equal("slot-full", await ProblemCodeAsync(full));
        var code = (await JsonAsync(booked))["code"]!.GetValue<string>();

        // The in-process jobs (the embedded default) relay the booking's SMS within a few seconds.
        var text = await ScrapeUntilAsync(client, "slots_sms_sent_total");

        Assert.Contains("slots_api_reservations_total{otel_scope_name=\"Slots.Api\",operation=\"reserve\",outcome=\"reserved\"}", text);
        Assert.Contains("slots_api_reservations_total{otel_scope_name=\"Slots.Api\",operation=\"reserve\",outcome=\"slot-full\"}", text);
        Assert.Contains("slots_api_reservation_duration_seconds_bucket{otel_scope_name=\"Slots.Api\",operation=\"reserve\",outcome=\"reserved\",le=\"0.005\"}", text);
        Assert.Contains("slots_api_availability_reads_total", text);
        Assert.Contains("slots_api_availability_duration_seconds_bucket{otel_scope_name=\"Slots.Api\",operation=\"availability\",outcome=\"built\",le=\"0.005\"}", text);
        Assert.Contains("slots_scheduler_job_runs_total", text);
        Assert.Contains("slots_scheduler_flush_lag_seconds", text);
        Assert.Contains("slots_sms_outbox_depth", text);
        Assert.DoesNotContain(code, text);
        Assert.DoesNotContain(booker.Phone, text);
        Assert.DoesNotContain(booker.Name, text);
    }

    [Fact]
    public async Task A_host_keeps_its_series_when_another_host_in_the_process_stops()
    {
        // Two hosts in one process (tests, or a tool that hosts the API beside another): each exports
        // the meters its own services made. The other host's meters of the same names share nothing
        // with this one's, so its stopping takes none of this host's series with it.
        var other = await StartAsync();
        var otherPlace = await CreatePlaceWithSlotsAsync(other.AdminClient(), capacity: 1);
        Assert.Equal(HttpStatusCode.Created, (await other.Client().SendAsync(Reserve(otherPlace, Today.AddDays(2), "08:00", People.Next()))).StatusCode);
        var host = await StartAsync();
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next()))).StatusCode);
        var before = await client.GetStringAsync("/metrics");

        await other.DisposeAsync();
        // A scrape past the exporter's response cache (300 ms): a stream whose instruments have all
        // stopped is exported that once more and dropped.
        await Task.Delay(TimeSpan.FromMilliseconds(400), TestContext.Current.CancellationToken);
        await client.GetStringAsync("/metrics");
        Assert.Equal(HttpStatusCode.Conflict, (await client.SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next()))).StatusCode);
        const string Full = "slots_api_reservations_total{otel_scope_name=\"Slots.Api\",operation=\"reserve\",outcome=\"slot-full\"} 1\n";
        var after = await ScrapeUntilAsync(client, Full);

        const string Reserved = "slots_api_reservations_total{otel_scope_name=\"Slots.Api\",operation=\"reserve\",outcome=\"reserved\"} 1\n";
        Assert.Contains(Reserved, before);
        Assert.Contains(Reserved, after);
        Assert.Contains(Full, after);
    }

    [Fact]
    public async Task A_week_read_again_while_its_seats_stay_the_same_is_timed_as_a_kept_answer()
    {
        var host = await StartAsync();
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2);
        var day = Today.AddDays(2);

        // The place's week is kept from its third read within the snapshot's age; a stall past that age
        // starts the count again, so a few rounds are allowed.
        var text = "";
        for (var round = 0; round < 10 && !text.Contains("outcome=\"kept\"", StringComparison.Ordinal); round++)
        {
            for (var i = 0; i < 4; i++)
            {
                await FreeSeatsAsync(client, place, day, "08:00");
            }
            text = await client.GetStringAsync("/metrics");
        }

        Assert.Contains("slots_api_availability_duration_seconds_bucket{otel_scope_name=\"Slots.Api\",operation=\"availability\",outcome=\"kept\",le=\"0.001\"}", text);
        Assert.Contains("slots_api_availability_duration_seconds_bucket{otel_scope_name=\"Slots.Api\",operation=\"availability\",outcome=\"built\",le=\"0.001\"}", text);
    }

    [Fact]
    public async Task Metrics_refuse_a_caller_through_a_proxy_without_a_staff_key()
    {
        var client = (await StartAsync()).Client();

        var proxied = new HttpRequestMessage(HttpMethod.Get, "/metrics") { Headers = { { "X-Forwarded-For", "203.0.113.7" } } };
        var refused = await client.SendAsync(proxied);
        var withKey = new HttpRequestMessage(HttpMethod.Get, "/metrics")
        {
            Headers = { { "X-Forwarded-For", "203.0.113.7" }, { "X-Api-Key", SlotsHost.ViewerKey } },
        };
        var admitted = await client.SendAsync(withKey);

        Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);
        Assert.Equal("unauthenticated", await ProblemCodeAsync(refused));
        Assert.DoesNotContain("slots_", await refused.Content.ReadAsStringAsync());
        Assert.Equal(HttpStatusCode.OK, admitted.StatusCode);
        Assert.StartsWith("text/plain", admitted.Content.Headers.ContentType!.ToString());
    }

    private static async Task<string> ScrapeUntilAsync(HttpClient client, string series)
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (true)
        {
            var text = await client.GetStringAsync("/metrics");
            if (text.Contains(series, StringComparison.Ordinal) || DateTime.UtcNow > deadline)
            {
                return text;
            }
            await Task.Delay(250);
        }
    }
}
