using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.Json.Nodes;
using Slots.Testing;

namespace Slots.Stack.Tests.Infrastructure;

/// <summary>What one HTTP attempt got back, as a client sees it.</summary>
/// <param name="ProblemStatus">The status a problem answer's body names (RFC 9457 "status"); null for other answers.</param>
public sealed record Attempt(HttpStatusCode? Status, string? Code, string? ContentType, TimeSpan? RetryAfter, TimeSpan Latency, long SentAtMs, string? ReservationCode,
    int? ProblemStatus = null);

/// <summary>
/// A person's booking as a well-behaved client makes it: one Idempotency-Key, and on 429/502/503/504
/// (or a dropped connection) a wait of Retry-After and the same request again, a bounded number of times.
/// </summary>
public sealed class Booking(int placeId, DateOnly day, string time, int person)
{
    private static readonly Stopwatch Clock = Stopwatch.StartNew();

    public string Key { get; } = Guid.NewGuid().ToString();

    private readonly List<Attempt> _attempts = [];

    /// <summary>Every attempt so far; safe to read while the booking is still being sent.</summary>
    public IReadOnlyList<Attempt> Attempts
    {
        get
        {
            lock (_attempts)
            {
                return _attempts.ToArray();
            }
        }
    }

    public Attempt? Final => Attempts is { Count: > 0 } all ? all[^1] : null;

    /// <summary>The reservation code when the booking ended in 201.</summary>
    public string? Code => Final is { Status: HttpStatusCode.Created } f ? f.ReservationCode : null;

    public static long NowMs => Clock.ElapsedMilliseconds;

    public static bool IsRetryable(Attempt a) =>
        a.Status is null or HttpStatusCode.TooManyRequests or HttpStatusCode.BadGateway or HttpStatusCode.ServiceUnavailable or HttpStatusCode.GatewayTimeout;

    /// <summary>Sends once; returns what came back.</summary>
    public async Task<Attempt> SendAsync(HttpClient client)
    {
        var sent = NowMs;
        var watch = Stopwatch.StartNew();
        Attempt attempt;
        try
        {
            using var response = await client.SendAsync(Request());
            var body = await response.Content.ReadAsStringAsync();
            var json = TryParse(body);
            attempt = new Attempt(response.StatusCode, json?["code"]?.GetValue<string>(), response.Content.Headers.ContentType?.MediaType,
                response.Headers.RetryAfter?.Delta, watch.Elapsed, sent,
                response.StatusCode == HttpStatusCode.Created ? json?["code"]?.GetValue<string>() : null,
                response.Content.Headers.ContentType?.MediaType == "application/problem+json" ? json?["status"]?.GetValue<int>() : null);
        }
        catch (HttpRequestException)
        {
            attempt = new Attempt(null, null, null, null, watch.Elapsed, sent, null);
        }
        lock (_attempts)
        {
            _attempts.Add(attempt);
        }
        return attempt;
    }

    /// <summary>Sends until an answer that is not "try again", waiting Retry-After (capped by <paramref name="maxWait"/>) between tries.</summary>
    public async Task<Attempt> SendUntilAnsweredAsync(HttpClient client, int maxAttempts = 8, TimeSpan? maxWait = null)
    {
        var attempt = await SendAsync(client);
        for (var i = 1; i < maxAttempts && IsRetryable(attempt); i++)
        {
            var wait = attempt.RetryAfter ?? TimeSpan.FromMilliseconds(250);
            await Task.Delay(maxWait is { } cap && cap < wait ? cap : wait);
            attempt = await SendAsync(client);
        }
        return attempt;
    }

    private HttpRequestMessage Request() => new(HttpMethod.Post, "/api/reservations")
    {
        Headers = { { "Idempotency-Key", Key } },
        Content = JsonContent.Create(new
        {
            placeId,
            day = Places.Day(day),
            time,
            name = $"Osoba {person}",
            phone = string.Create(CultureInfo.InvariantCulture, $"+4219{person % 100_000_000:00000000}"),
            nationalId = string.Create(CultureInfo.InvariantCulture, $"77{person:00000000}"),
            language = "sk",
        }),
    };

    private static JsonNode? TryParse(string body)
    {
        try
        {
            return body.Length == 0 ? null : JsonNode.Parse(body);
        }
        catch (JsonException)
        {
            return null;
        }
    }
}

/// <summary>Places and slots made through the admin API of one instance (not through HAProxy's limits).</summary>
public static class Places
{
    private static int _person = Random.Shared.Next(1_000_000, 9_000_000);

    public static TimeZoneInfo Bratislava { get; } = TimeZoneInfo.FindSystemTimeZoneById("Europe/Bratislava");

    /// <summary>Two days ahead in the place's zone: inside the hot window, never started.</summary>
    public static DateOnly BookableDay => DateOnly.FromDateTime(TimeZoneInfo.ConvertTime(DateTimeOffset.UtcNow, Bratislava).DateTime).AddDays(2);

    /// <summary>Slot start times of a place made by <see cref="CreateAsync"/>.</summary>
    public static readonly string[] Times = ["08:00", "08:10", "08:20", "08:30", "08:40", "08:50"];

    /// <summary>A new person number, never used before in this run (one active reservation per person).</summary>
    public static int NextPerson() => Interlocked.Increment(ref _person);

    public static string Day(DateOnly day) => day.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    /// <summary>
    /// A place with six 10-minute slots on <see cref="BookableDay"/>, <paramref name="capacity"/> seats
    /// each, made on the first instance and returned once every instance knows it: an instance reloads
    /// its place directory for an unknown id at most once a second, so a place made a moment ago on
    /// another instance can still be unknown-place there.
    /// </summary>
    public static async Task<int> CreateAsync(IReadOnlyList<ApiProcess> apis, int capacity)
    {
        using var admin = new HttpClient { BaseAddress = apis[0].BaseAddress, Timeout = TimeSpan.FromSeconds(60) };
        admin.DefaultRequestHeaders.Add("X-Api-Key", StackProcesses.AdminKey);
        var created = await admin.PostAsJsonAsync("/api/admin/places", new
        {
            name = $"Stack test site {Guid.NewGuid():N}",
            address = "Hlavná 1, 811 01 Bratislava",
            region = "Bratislavský kraj",
            timeZone = "Europe/Bratislava",
        });
        created.EnsureSuccessStatusCode();
        var id = (await created.Content.ReadFromJsonAsync<JsonObject>())!["id"]!.GetValue<int>();
        var generated = await admin.PostAsJsonAsync("/api/admin/slots/generate", new
        {
            placeIds = new[] { id },
            from = Day(BookableDay),
            to = Day(BookableDay.AddDays(1)),
            template = new { firstStart = "08:00", lastStart = "08:50", intervalMinutes = 10, lengthMinutes = 10 },
            capacity,
        });
        generated.EnsureSuccessStatusCode();
        foreach (var api in apis)
        {
            using var probe = new HttpClient { BaseAddress = api.BaseAddress, Timeout = TimeSpan.FromSeconds(10) };
            for (var tries = 0; (await probe.GetAsync($"/api/places/{id}")).StatusCode == HttpStatusCode.NotFound; tries++)
            {
                Assert.True(tries < 50, $"Place {id} still unknown on {api.Address} after 5 s.");
                await Task.Delay(100);
            }
        }
        return id;
    }
}
