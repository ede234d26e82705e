using System.Net.Http.Headers;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Room;

/// <summary>The staff side of the scenario: a place of its own, one day of seats, the opening, and its counters read back.</summary>
public sealed class Staff(HttpClient client, Uri target, string adminKey)
{
    private static readonly MediaTypeHeaderValue Json = new("application/json");

    /// <summary>A new place with <paramref name="capacity"/> seats at each of the day's times; answers the place and the seats made.</summary>
    public async Task<(int PlaceId, int Seats)> CreatePlaceAsync(string runId, string day, int capacity, CancellationToken ct)
    {
        var place = await AddPlaceAsync(new NewPlaceBody($"Waiting-room stampede {runId}", "Load test", "loadtest-room", "Europe/Bratislava", true), ct);
        var slots = await GenerateAsync(place, day, day, new TemplateBody("08:00", "16:15", 15, 15), capacity, RoomOptions.TimesPerDay, ct);
        return (place, slots * capacity);
    }

    public async Task<int> AddPlaceAsync(NewPlaceBody place, CancellationToken ct) =>
        (await SendAsync(HttpMethod.Post, "/api/admin/places", place, RoomJson.Default.NewPlaceBody, RoomJson.Default.CreatedPlace, ct)).Id;

    /// <summary>The template's slots at the place from one day to another; answers how many were made, which must be <paramref name="expected"/>.</summary>
    public async Task<int> GenerateAsync(int placeId, string from, string to, TemplateBody template, int capacity, int expected, CancellationToken ct)
    {
        var slots = await SendAsync(HttpMethod.Post, "/api/admin/slots/generate", new GenerateBody([placeId], from, to, template, capacity, false),
            RoomJson.Default.GenerateBody, RoomJson.Default.GeneratedSlots, ct);
        if (slots.SlotsCreated != expected)
        {
            throw new InvalidOperationException($"Generating slots made {slots.SlotsCreated} slots, not {expected}.");
        }
        return slots.SlotsCreated;
    }

    public Task<OpeningBody> OpenAsync(NewOpeningBody opening, CancellationToken ct) =>
        SendAsync(HttpMethod.Post, "/api/admin/openings", opening, RoomJson.Default.NewOpeningBody, RoomJson.Default.OpeningBody, ct);

    public Task<OpeningBody> ReadAsync(long openingId, CancellationToken ct) =>
        SendAsync<object, OpeningBody>(HttpMethod.Get, $"/api/admin/openings/{openingId}", null, null, RoomJson.Default.OpeningBody, ct);

    public Task<OpeningBody> CloseAsync(long openingId, CancellationToken ct) =>
        SendAsync<object, OpeningBody>(HttpMethod.Post, $"/api/admin/openings/{openingId}/close", null, null, RoomJson.Default.OpeningBody, ct);

    private async Task<TOut> SendAsync<TIn, TOut>(HttpMethod method, string path, TIn? body, JsonTypeInfo<TIn>? bodyType, JsonTypeInfo<TOut> answerType, CancellationToken ct)
    {
        using var request = new HttpRequestMessage(method, new Uri(target, path));
        request.Headers.Add("X-Api-Key", adminKey);
        if (body is not null && bodyType is not null)
        {
            request.Content = new ByteArrayContent(JsonSerializer.SerializeToUtf8Bytes(body, bodyType));
            request.Content.Headers.ContentType = Json;
        }
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeout.CancelAfter(TimeSpan.FromSeconds(30));
        using var response = await client.SendAsync(request, timeout.Token);
        return await Answers.ReadAsync(response, answerType, timeout.Token);
    }
}
