using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Api;

/// <summary>Regression: the 201 of a booking had minutes and name null where its lookup had both.</summary>
public sealed class ReservationShapeTests : ApiTestBase
{
    private static readonly string[] Members = ["code", "placeId", "placeName", "address", "day", "time", "minutes", "name", "state", "service"];

    [Fact]
    public async Task Booking_lookup_and_reschedule_answer_with_the_same_complete_reservation()
    {
        var host = await StartAsync();
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2);
        var day = Today.AddDays(2);
        var person = People.Next();

        var booked = await client.SendAsync(Reserve(place, day, "08:00", person));
        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        var created = await JsonAsync(booked);
        var code = created["code"]!.GetValue<string>();
        var found = await JsonAsync(await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone)));
        var moved = await client.SendAsync(WithPhone(HttpMethod.Post, $"/api/reservations/{code}/reschedule", person.Phone,
            new { placeId = place, day = Day(day), time = "08:10" }));
        Assert.Equal(HttpStatusCode.OK, moved.StatusCode);
        var rescheduled = await JsonAsync(moved);

        Assert.Equal(Members, created.Select(m => m.Key));
        Assert.True(JsonNode.DeepEquals(created, found), $"{created} != {found}");
        Assert.Equal(10, created["minutes"]!.GetValue<int>());
        Assert.Equal(person.Name, created["name"]!.GetValue<string>());
        Assert.Equal(Members, rescheduled.Select(m => m.Key));
        Assert.Equal("08:10", rescheduled["time"]!.GetValue<string>());
        Assert.Equal(10, rescheduled["minutes"]!.GetValue<int>());
        Assert.Equal(person.Name, rescheduled["name"]!.GetValue<string>());
    }

    [Fact]
    public async Task A_replayed_booking_answers_with_the_same_complete_reservation()
    {
        var host = await StartAsync();
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2);
        var person = People.Next();

        var first = await JsonAsync(await client.SendAsync(Reserve(place, Today.AddDays(2), "08:20", person, key: "shape-key-0001")));
        var replay = await client.SendAsync(Reserve(place, Today.AddDays(2), "08:20", person, key: "shape-key-0001"));

        Assert.Equal(HttpStatusCode.Created, replay.StatusCode);
        Assert.True(JsonNode.DeepEquals(first, await JsonAsync(replay)));
        Assert.Equal(10, first["minutes"]!.GetValue<int>());
    }

    [Fact]
    public async Task A_booking_replayed_after_its_cancellation_still_answers_its_201_with_the_complete_reservation()
    {
        var host = await StartAsync();
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2);
        var person = People.Next();
        var first = await JsonAsync(await client.SendAsync(Reserve(place, Today.AddDays(2), "08:20", person, key: "shape-key-0002")));
        var code = first["code"]!.GetValue<string>();
        Assert.Equal(HttpStatusCode.NoContent, (await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone))).StatusCode);

        // A key that got 201 keeps answering that 201: the retry of a client that never saw it must not read as a failure.
        var replay = await client.SendAsync(Reserve(place, Today.AddDays(2), "08:20", person, key: "shape-key-0002"));

        Assert.Equal(HttpStatusCode.Created, replay.StatusCode);
        Assert.True(JsonNode.DeepEquals(first, await JsonAsync(replay)));
    }
}
