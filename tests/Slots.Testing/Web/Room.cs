using System.Net.Http.Json;
using System.Text.Json.Nodes;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Web;

/// <summary>The waiting room's wire format, for tests that read as what a client does.</summary>
public static class Room
{
    public const string TokenHeader = "Waiting-Room-Token";

    public static readonly string[] Times = ["08:00", "08:10", "08:20", "08:30", "08:40", "08:50"];

    /// <summary>Announces an opening of these places; opened a second ago unless told otherwise.</summary>
    public static async Task<long> OpenAsync(HttpClient admin, int[] placeIds, DateTimeOffset? opensAt = null,
        double? admitPerSecond = null, int? admissionSeconds = null, int abandonAllowance = 0)
    {
        var created = await admin.PostAsJsonAsync("/api/admin/openings", new
        {
            placeIds,
            opensAt = opensAt ?? DateTimeOffset.UtcNow.AddSeconds(-1),
            admitPerSecond,
            admissionSeconds,
            abandonAllowance,
        });
        Assert.Equal(System.Net.HttpStatusCode.Created, created.StatusCode);
        return (await JsonAsync(created))["id"]!.GetValue<long>();
    }

    public static async Task<(string Token, JsonObject Status, HttpResponseMessage Response)> JoinAsync(HttpClient client, long openingId, Person person)
    {
        var response = await client.PostAsJsonAsync($"/api/waiting-room/openings/{openingId}/join", new { nationalId = person.NationalId });
        if (!response.IsSuccessStatusCode)
        {
            return ("", await JsonAsync(response), response);
        }
        var body = await JsonAsync(response);
        return (body["token"]!.GetValue<string>(), body["status"]!.AsObject(), response);
    }

    public static async Task<JsonObject> StatusAsync(HttpClient client, string token)
    {
        var response = await client.SendAsync(StatusRequest(token));
        response.EnsureSuccessStatusCode();
        return await JsonAsync(response);
    }

    public static HttpRequestMessage StatusRequest(string token) =>
        new(HttpMethod.Get, "/api/waiting-room/status") { Headers = { { TokenHeader, token } } };

    public static HttpRequestMessage WithToken(HttpRequestMessage request, string token)
    {
        request.Headers.Add(TokenHeader, token);
        return request;
    }

    public static string State(JsonObject status) => status["state"]!.GetValue<string>();

    public static long? Position(JsonObject status) => status["position"]?.GetValue<long>();

    /// <summary>The n-th of the 12 slots <see cref="Api.CreatePlaceWithSlotsAsync"/> makes (two days, six times).</summary>
    public static (DateOnly Day, string Time) Slot(int n) => (Today.AddDays(2 + (n / Times.Length)), Times[n % Times.Length]);
}
