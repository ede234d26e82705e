using System.Net;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace Slots.LoadTest.Simulation;

// What the simulator reads and sends, as the SPA sees the API (api/Slots.Api/Contracts).

public sealed record PlaceItem(int Id, string Name, string TimeZone, bool Active);

public sealed record PlacePage(IReadOnlyList<PlaceItem> Items, int Page, int PageSize, int Total);

public sealed record SlotItem(string Time, int Minutes, int Capacity, int Free);

public sealed record DayItem(string Day, IReadOnlyList<SlotItem> Slots);

public sealed record AvailabilityBody(int PlaceId, string TimeZone, string From, string To, IReadOnlyList<DayItem> Days);

/// <summary>A booking as the SPA sends it; the invitation code only where the crowd brings codes (left out when null).</summary>
public sealed record ReserveBody(int PlaceId, string Day, string Time, string Name, string Phone, string NationalId, string Language,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] string? Invitation = null);

public sealed record ReservationBody(string Code, int PlaceId, string Day, string Time);

public sealed record AlternativeItem(int PlaceId, string Day, string Time, int Free);

/// <summary>The parts of an RFC 9457 problem the simulator acts on.</summary>
public sealed record ProblemBody(string? Code, IReadOnlyList<AlternativeItem>? Alternatives);

/// <summary>How every simulated person reads an answer: is it "wait and send again", and its problem.</summary>
public static class Answers
{
    /// <summary>429, 503 and request-in-progress: the same request is sent again after Retry-After.</summary>
    public static bool IsWait(HttpStatusCode status, byte[] body) =>
        status is HttpStatusCode.TooManyRequests or HttpStatusCode.ServiceUnavailable ||
        (status == HttpStatusCode.Conflict && ReadProblem(body)?.Code == "request-in-progress");

    /// <summary>
    /// What a request that found its connection closed before any answer (ResponseEnded) is counted as when it is sent
    /// again at once, once, with the same Idempotency-Key: a browser resends a request that fails so on a kept-alive
    /// connection, and .NET's handler does it for a request without a body. Through the stack on shared CPUs the
    /// generator reads answers seconds after they arrive, and a connection it takes back at once was closed by
    /// HAProxy's keep-alive meanwhile (docs/benchmarks.md, 2026-12-01). A resend that fails so again is "no answer".
    /// </summary>
    public const string ResentAtOnce = "resent at once: its connection closed before an answer (ResponseEnded)";

    /// <summary>Whether <paramref name="failure"/> is a request that found its connection closed before any answer.</summary>
    public static bool EndedUnanswered(HttpRequestException failure) => failure.HttpRequestError == HttpRequestError.ResponseEnded;

    public static ProblemBody? ReadProblem(byte[] body)
    {
        try
        {
            return JsonSerializer.Deserialize(body, WireJson.Default.ProblemBody);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <summary>
    /// The answer's body as <typeparamref name="T"/>. Any other answer than 2xx with a body throws, naming the
    /// request and the start of its problem (staff answers carry no personal data, but the line stays short).
    /// </summary>
    public static async Task<T> ReadAsync<T>(HttpResponseMessage response, JsonTypeInfo<T> type, CancellationToken ct)
    {
        var text = await response.Content.ReadAsStringAsync(ct);
        var request = $"{response.RequestMessage?.Method} {response.RequestMessage?.RequestUri?.AbsolutePath}";
        if (!response.IsSuccessStatusCode)
        {
            throw new InvalidOperationException($"{request} answered {(int)response.StatusCode}: {(text.Length > 300 ? text[..300] : text)}");
        }
        return JsonSerializer.Deserialize(text, type) ?? throw new InvalidOperationException($"{request} answered no body.");
    }
}

[JsonSourceGenerationOptions(JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(PlacePage))]
[JsonSerializable(typeof(AvailabilityBody))]
[JsonSerializable(typeof(ReserveBody))]
[JsonSerializable(typeof(ReservationBody))]
[JsonSerializable(typeof(ProblemBody))]
internal sealed partial class WireJson : JsonSerializerContext;
