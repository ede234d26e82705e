using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Net;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Slots.Admission;
using Slots.Api.Hosting;
using Slots.Api.Tests.Api;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;
using static Slots.Testing.Web.Room;

namespace Slots.Api.Tests.Admission;

/// <summary>The waiting room as the embedded default runs it: the counter job in the API process, the signing key at start.</summary>
public sealed class AdmissionHostTests : ApiTestBase
{
    [Fact]
    public async Task The_API_advances_the_counters_itself_on_the_embedded_default()
    {
        var host = await StartAsync(new Dictionary<string, string?>
        {
            ["Slots:WaitingRoom:AdvanceEvery"] = "00:00:00.200",
            ["Slots:WaitingRoom:ViewRefresh"] = "00:00:00.100",
        });
        var (client, admin) = (host.Client(), host.AdminClient());
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var opening = await OpenAsync(admin, [place]);
        var person = People.Next();
        var (token, _, _) = await JoinAsync(client, opening, person);

        var state = "";
        var watch = Stopwatch.StartNew();
        while (watch.Elapsed < TimeSpan.FromSeconds(20) && (state = State(await StatusAsync(client, token))) != "admitted")
        {
            await Task.Delay(100);
        }

        Assert.Equal("admitted", state);
        var (day, time) = Slot(0);
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(WithToken(Reserve(place, day, time, person), token))).StatusCode);
    }

    [Fact]
    public async Task The_gate_counts_its_refusals_in_the_Slots_Admission_meter()
    {
        var refused = 0L;
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == AdmissionMetrics.MeterName && instrument.Name == "slots.waiting_room.gate")
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((_, value, tags, _) =>
        {
            foreach (var tag in tags)
            {
                if (tag.Key == "verdict" && (string?)tag.Value == nameof(GateVerdict.TokenRequired))
                {
                    Interlocked.Add(ref refused, value);
                }
            }
        });
        listener.Start();
        var host = await StartAsync();
        var (client, admin) = (host.Client(), host.AdminClient());
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        await OpenAsync(admin, [place]);
        var (day, time) = Slot(0);

        var response = await client.SendAsync(Reserve(place, day, time, People.Next()));

        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
        Assert.True(Interlocked.Read(ref refused) >= 1);
    }

    [Theory]
    [InlineData("Production", false)]
    [InlineData("Staging", false)]
    [InlineData("Development", true)]
    public async Task Outside_Development_the_API_does_not_start_without_a_signing_key(string environment, bool starts)
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { EnvironmentName = environment, DisableDefaults = true });
        builder.AddSlotsDomain();
        builder.AddAdmissionTokens();
        using var app = builder.Build();

        if (starts)
        {
            await app.StartAsync(TestContext.Current.CancellationToken);
            await app.StopAsync(TestContext.Current.CancellationToken);
        }
        else
        {
            await Assert.ThrowsAsync<OptionsValidationException>(() => app.StartAsync(TestContext.Current.CancellationToken));
        }
    }
}
