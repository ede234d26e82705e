using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Storage;
using Slots.Storage.Ef;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Api;

/// <summary>On the embedded default the API runs the window jobs itself, and shows them to staff.</summary>
public sealed class SchedulerJobsTests : ApiTestBase
{
    [Fact]
    public async Task The_API_runs_the_jobs_in_process_flushes_bookings_to_disk_and_shows_each_jobs_last_run_to_viewers()
    {
        var flushRuns = 0L;
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == "Slots.Scheduler" && instrument.Name == "slots.scheduler.job.runs")
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((_, value, tags, _) =>
        {
            foreach (var tag in tags)
            {
                if (tag.Key == "job" && (string?)tag.Value == "flush-hot-changes")
                {
                    Interlocked.Add(ref flushRuns, value);
                }
            }
        });
        listener.Start();
        var host = await StartAsync(new Dictionary<string, string?> { ["Slots:Scheduler:FlushEvery"] = "00:00:00.200" });
        var admin = host.AdminClient();
        var viewer = host.Client();
        viewer.DefaultRequestHeaders.Add("X-Api-Key", SlotsHost.ViewerKey);
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 2);
        Assert.Equal(HttpStatusCode.Created, (await host.Client().SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next()))).StatusCode);

        JsonObject? jobs = null;
        var watch = Stopwatch.StartNew();
        while (watch.Elapsed < TimeSpan.FromSeconds(30))
        {
            jobs = await viewer.GetFromJsonAsync<JsonObject>("/api/admin/jobs");
            var flush = jobs!["jobs"]!.AsArray().FirstOrDefault(j => j!["job"]!.GetValue<string>() == "flush-hot-changes");
            if (flush is not null && jobs["flushLagSeconds"]!.GetValue<double>() == 0 && jobs["oldestPendingChangeAt"] is null)
            {
                break;
            }
            await Task.Delay(200);
        }

        var names = jobs!["jobs"]!.AsArray().Select(j => j!["job"]!.GetValue<string>()).ToList();
        Assert.Contains("flush-hot-changes", names);
        Assert.Contains("advance-window", names);
        Assert.All(jobs["jobs"]!.AsArray(), j => Assert.True(j!["ok"]!.GetValue<bool>()));
        Assert.Null(jobs["oldestPendingChangeAt"]);
        Assert.True(Interlocked.Read(ref flushRuns) > 0);
        await using (var scope = host.Services.CreateAsyncScope())
        {
            var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
            Assert.Equal(1, await db.Reservations.CountAsync(r => r.PlaceId == place));
            Assert.Equal(0, await db.Changes.CountAsync());
        }
        Assert.Equal(HttpStatusCode.Unauthorized, (await host.Client().GetAsync("/api/admin/jobs")).StatusCode);
    }
}
