using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace Slots.Testing.Web;

/// <summary>Small helpers that speak the API's wire format, so tests read as what a client does.</summary>
public static class Api
{
    public static readonly TimeZoneInfo Bratislava = TimeZoneInfo.FindSystemTimeZoneById("Europe/Bratislava");

    public static DateOnly Today => DateOnly.FromDateTime(TimeZoneInfo.ConvertTime(DateTimeOffset.UtcNow, Bratislava).DateTime);

    public static string Day(DateOnly day) => day.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    /// <summary>Creates a place with one day of slots (08:00–08:50 every 10 minutes) and the given seats per slot.</summary>
    public static async Task<int> CreatePlaceWithSlotsAsync(HttpClient admin, int capacity, DateOnly? day = null, string? name = null)
    {
        var created = await admin.PostAsJsonAsync("/api/admin/places", new
        {
            name = name ?? $"Test site {Guid.NewGuid():N}",
            address = "Hlavná 1, 811 01 Bratislava",
            region = "Bratislavský kraj",
            timeZone = "Europe/Bratislava",
        });
        created.EnsureSuccessStatusCode();
        var id = (await created.Content.ReadFromJsonAsync<JsonObject>())!["id"]!.GetValue<int>();
        var first = day ?? Today.AddDays(2);
        await GenerateSlotsAsync(admin, id, first, first.AddDays(1), capacity);
        return id;
    }

    /// <summary>
    /// A place as <see cref="CreatePlaceWithSlotsAsync"/> makes it from <paramref name="hotDay"/> (inside the
    /// 30-day window), with the same slots on <paramref name="diskDay"/> too (beyond it, on the cold path).
    /// </summary>
    public static async Task<int> CreatePlaceWithHotAndDiskDaysAsync(HttpClient admin, int capacity, DateOnly hotDay, DateOnly diskDay)
    {
        var id = await CreatePlaceWithSlotsAsync(admin, capacity, hotDay);
        await GenerateSlotsAsync(admin, id, diskDay, diskDay, capacity);
        return id;
    }

    /// <summary>Slots of 10 minutes every 10 minutes, <paramref name="firstStart"/> to <paramref name="lastStart"/> (08:00-08:50 unless named), on each day of [from, to].</summary>
    public static async Task GenerateSlotsAsync(HttpClient admin, int placeId, DateOnly from, DateOnly to, int capacity,
        string firstStart = "08:00", string lastStart = "08:50")
    {
        var generated = await admin.PostAsJsonAsync("/api/admin/slots/generate", new
        {
            placeIds = new[] { placeId },
            from = Day(from),
            to = Day(to),
            template = new { firstStart, lastStart, intervalMinutes = 10, lengthMinutes = 10 },
            capacity,
        });
        generated.EnsureSuccessStatusCode();
    }

    /// <summary>Makes the default service a vaccination of two doses <paramref name="minDays"/> to <paramref name="maxDays"/> days apart.</summary>
    public static async Task TwoDosesAsync(HttpClient admin, int minDays, int maxDays) =>
        (await admin.PutAsJsonAsync("/api/admin/services/default",
            new { nameSk = "Očkovanie", nameEn = "Vaccination", secondDose = new { minDays, maxDays }, active = true })).EnsureSuccessStatusCode();

    /// <summary>A booking; the body names a service only when <paramref name="service"/> is given (the body clients sent before services, otherwise).</summary>
    public static HttpRequestMessage Reserve(int placeId, DateOnly day, string time, Person person, string? key = null, string language = "sk",
        string? service = null) =>
        new(HttpMethod.Post, "/api/reservations")
        {
            Headers = { { "Idempotency-Key", key ?? Guid.NewGuid().ToString() } },
            Content = service is null
                ? JsonContent.Create(new { placeId, day = Day(day), time, name = person.Name, phone = person.Phone, nationalId = person.NationalId, language })
                : JsonContent.Create(new { placeId, day = Day(day), time, name = person.Name, phone = person.Phone, nationalId = person.NationalId, language, service }),
        };

    public static HttpRequestMessage WithNationalId(HttpMethod method, string url, string nationalId) =>
        new(method, url) { Headers = { { "Slots-National-Id", nationalId } } };

    public static HttpRequestMessage WithPhone(HttpMethod method, string url, string phone, object? body = null)
    {
        var request = new HttpRequestMessage(method, url) { Headers = { { "Slots-Phone", phone } } };
        if (body is not null)
        {
            request.Content = JsonContent.Create(body);
        }
        return request;
    }

    public static async Task<int> FreeSeatsAsync(HttpClient client, int placeId, DateOnly day, string time)
    {
        var availability = await client.GetFromJsonAsync<JsonObject>($"/api/places/{placeId}/availability?from={Day(day)}&to={Day(day)}");
        var slot = availability!["days"]!.AsArray().Single()!["slots"]!.AsArray().Single(s => s!["time"]!.GetValue<string>() == time);
        return slot!["free"]!.GetValue<int>();
    }

    public static async Task<JsonObject> JsonAsync(HttpResponseMessage response) =>
        JsonNode.Parse(await response.Content.ReadAsStringAsync())!.AsObject();

    /// <summary>A 400 problem whose errors name <paramref name="field"/>.</summary>
    public static async Task AssertInvalidAsync(HttpResponseMessage response, string field)
    {
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType!.MediaType);
        var errors = (await JsonAsync(response))["errors"]!.AsObject();
        Assert.True(errors.ContainsKey(field), $"errors name {string.Join(", ", errors.Select(e => e.Key))}, not {field}");
    }

    public static async Task<string?> ProblemCodeAsync(HttpResponseMessage response)
    {
        var text = await response.Content.ReadAsStringAsync();
        try
        {
            return JsonNode.Parse(text)?["code"]?.GetValue<string>();
        }
        catch (JsonException)
        {
            return null;
        }
    }
}
