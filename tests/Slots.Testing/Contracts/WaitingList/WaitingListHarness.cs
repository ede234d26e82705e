using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Slots.Testing.Web;
using Slots.WaitingList;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.WaitingList;

/// <summary>
/// The waiting list's suites' one setup: a host whose offer job waits (the tests step the line at
/// instants of their own), joins, entries and a sold-out place over HTTP.
/// </summary>
public abstract class WaitingListHarness<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    protected const string TokenHeader = "Slots-Waiting-List-Token";
    private SlotsHost? _host;
    private Rows? _rows;

    /// <summary>The host <see cref="StartAsync"/> started.</summary>
    protected SlotsHost Host => _host ?? throw new InvalidOperationException("StartAsync first");

    /// <summary>Rows of the host's database.</summary>
    protected Rows Rows => _rows ?? throw new InvalidOperationException("StartAsync first");

    protected async Task<SlotsHost> StartAsync()
    {
        var settings = await CreateDatabaseAsync("db");
        _rows = new Rows(settings);
        // The job on the real clock runs once at the start (nothing to do then); the tests step the line themselves.
        _host = NewHost(settings, new Dictionary<string, string?> { ["Slots:WaitingList:Every"] = "01:00:00" });
        return _host;
    }

    protected Task<OfferStep> StepAsync(DateTimeOffset? at = null) =>
        Host.Services.GetRequiredService<IWaitingListStore>().StepAsync(
            DateTimeOffset.FromUnixTimeSeconds((at ?? DateTimeOffset.UtcNow).ToUnixTimeSeconds()),
            Host.Services.GetRequiredService<IOptions<WaitingListOptions>>().Value, TestContext.Current.CancellationToken);

    protected static HttpRequestMessage Join(int place, DateOnly from, DateOnly to, Person person) =>
        new(HttpMethod.Post, "/api/waiting-list")
        {
            Content = JsonContent.Create(new { placeId = place, from = Day(from), to = Day(to), name = person.Name, phone = person.Phone, nationalId = person.NationalId, language = "en" }),
        };

    protected static HttpRequestMessage Entry(HttpMethod method, string token, string path = "") =>
        new(method, "/api/waiting-list/entry" + path) { Headers = { { TokenHeader, token } } };

    protected async Task<string> JoinAsync(int place, DateOnly day, Person person)
    {
        var joined = await Host.Client().SendAsync(Join(place, day, day, person));
        Assert.Equal(HttpStatusCode.Created, joined.StatusCode);
        return (await JsonAsync(joined))["token"]!.GetValue<string>();
    }

    protected async Task<JsonObject> EntryAsync(string token) =>
        await JsonAsync(await Host.Client().SendAsync(Entry(HttpMethod.Get, token)));

    /// <summary>A place with one seat per slot on <paramref name="day"/>, every seat booked: (place, the bookings by time).</summary>
    protected async Task<(int Place, List<(string Code, Person Person)> Booked)> SoldOutAsync(DateOnly day)
    {
        var place = await CreatePlaceWithSlotsAsync(Host.AdminClient(), capacity: 1, day: day);
        var booked = new List<(string, Person)>();
        foreach (var time in new[] { "08:00", "08:10", "08:20", "08:30", "08:40", "08:50" })
        {
            var person = People.Next();
            var response = await Host.Client().SendAsync(Reserve(place, day, time, person));
            Assert.Equal(HttpStatusCode.Created, response.StatusCode);
            booked.Add(((await JsonAsync(response))["code"]!.GetValue<string>(), person));
        }
        return (place, booked);
    }

    protected Task<HttpResponseMessage> CancelAsync((string Code, Person Person) booking) =>
        Host.Client().SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{booking.Code}", booking.Person.Phone));
}
