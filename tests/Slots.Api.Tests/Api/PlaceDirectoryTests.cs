using System.Net;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Api;

/// <summary>Two API instances on one database, as behind HAProxy.</summary>
public sealed class PlaceDirectoryTests : IAsyncDisposable
{
    private readonly SqliteBackend _backend = new();
    private readonly List<SlotsHost> _hosts = [];

    // A place created through one instance once answered 404 unknown-place on another for up to a
    // second, while that instance's copy of the places was younger than its reload throttle. The
    // stack's overload test caught it (376 × 404 in one CI run); this checks the path on one machine,
    // though here slot generation usually outlasts the throttle.
    [Fact]
    public async Task A_place_created_on_one_instance_is_bookable_at_once_on_another()
    {
        var settings = await _backend.CreateDatabaseAsync("shared", TestContext.Current.CancellationToken);
        var first = Start(settings!);
        var second = Start(settings!);
        Assert.Equal(HttpStatusCode.OK, (await second.Client().GetAsync("/api/places")).StatusCode);   // its copy is fresh now

        var place = await CreatePlaceWithSlotsAsync(first.AdminClient(), capacity: 5);
        var booked = await second.Client().SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next()));

        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
    }

    private SlotsHost Start(IReadOnlyDictionary<string, string?> settings)
    {
        var host = new SlotsHost(settings, null, null);
        _hosts.Add(host);
        return host;
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var host in _hosts)
        {
            await host.DisposeAsync();
        }
        await _backend.DisposeAsync();
    }
}
