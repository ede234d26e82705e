using System.Net;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Security;

/// <summary>
/// The person-hash key rotated (#39): new bookings are hashed with the new key, and a booking made
/// under the old one is still found by the person's national id while the previous key is tried.
/// </summary>
public sealed class PersonKeyRotationTests : IAsyncDisposable
{
    private const string OldKey = "person-key-before-rotation-0001";
    private const string NewKey = "person-key-after-rotation-00002";
    private readonly SqliteBackend _backend = new();

    [Fact]
    public async Task A_booking_made_under_the_old_key_is_found_through_the_previous_key_and_new_bookings_use_the_new_one()
    {
        var settings = (await _backend.CreateDatabaseAsync("rotation", TestContext.Current.CancellationToken))!;
        var day = Today.AddDays(2);
        var before = People.Next();
        var after = People.Next();
        string oldCode, newCode;
        int place;
        await using (var old = new SlotsHost(settings, Key(OldKey)))
        {
            place = await CreatePlaceWithSlotsAsync(old.AdminClient(), capacity: 2);
            oldCode = (await JsonAsync(await old.Client().SendAsync(Reserve(place, day, "08:10", before))))["code"]!.GetValue<string>();
        }

        await using (var rotating = new SlotsHost(settings, Key(NewKey, previous: OldKey, until: DateTimeOffset.UtcNow.AddDays(1))))
        {
            var client = rotating.Client();
            Assert.Equal(HttpStatusCode.OK, (await client.SendAsync(ById(oldCode, before))).StatusCode);
            var booked = await client.SendAsync(Reserve(place, day, "08:20", after));
            Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
            newCode = (await JsonAsync(booked))["code"]!.GetValue<string>();
        }

        // Once the previous key is no longer tried, only what the new key hashed is found.
        await using var rotated = new SlotsHost(settings, Key(NewKey, previous: OldKey, until: DateTimeOffset.UtcNow.AddDays(-1)));
        var now = rotated.Client();
        Assert.Equal(HttpStatusCode.OK, (await now.SendAsync(ById(newCode, after))).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await now.SendAsync(ById(oldCode, before))).StatusCode);
    }

    [Fact]
    public async Task A_previous_key_without_an_end_is_refused_at_start()
    {
        var settings = (await _backend.CreateDatabaseAsync("no-end", TestContext.Current.CancellationToken))!;
        await using var host = new SlotsHost(settings, new Dictionary<string, string?>
        {
            ["Slots:Persons:HmacSecret"] = NewKey,
            ["Slots:Persons:PreviousHmacSecret"] = OldKey,
        });

        var refused = Assert.ThrowsAny<Exception>(() => host.Client());

        Assert.Contains("Slots:Persons:PreviousUntil", (refused.InnerException ?? refused).Message, StringComparison.Ordinal);
    }

    private static Dictionary<string, string?> Key(string key, string? previous = null, DateTimeOffset? until = null) => new()
    {
        ["Slots:Persons:HmacSecret"] = key,
        ["Slots:Persons:PreviousHmacSecret"] = previous,
        ["Slots:Persons:PreviousUntil"] = until?.ToString("O"),
    };

    private static HttpRequestMessage ById(string code, Person person) =>
        new(HttpMethod.Get, $"/api/reservations/{code}") { Headers = { { "Slots-National-Id", person.NationalId } } };

    public ValueTask DisposeAsync() => _backend.DisposeAsync();
}
