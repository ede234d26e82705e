using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using Slots.LoadTest.Reporting;
using Slots.LoadTest.Room;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Site;

/// <summary>
/// A site's day under load, on whatever the target holds (the benchmark's 5.1 M seats): a place of its own
/// whose clock reads about noon, 1,200 bookings on the next 50 minutes of today, then
/// <list type="bullet">
/// <item>the roster of that day (a page of 100, with the day's counts) read by <c>concurrency</c> staff at once
/// for <c>seconds</c>, after an uncounted warm-up of the same reads;</item>
/// <item>check-in at the door: every booking's code once, <c>concurrency</c> at a time, after an uncounted warm-up of
/// the same check-ins at a place of its own (a quarter as many bookings), as the roster's reads are warmed up;</item>
/// <item>a block cancel of the next day's 1,200 bookings (other people) in one request.</item>
/// </list>
/// Staff sign in with <see cref="SiteOptions.StaffToken"/> when one is given (the bearer path of a real
/// member), else with the admin's machine key.
/// </summary>
public static class SiteDay
{
    private const int Times = 5;
    private static readonly MediaTypeHeaderValue Json = new("application/json");

    public static async Task<SiteReport> RunAsync(SiteOptions o, IReadOnlyList<(string Role, int Pid)> pids, CancellationToken ct)
    {
        using var http = new HttpClient(new SocketsHttpHandler { MaxConnectionsPerServer = o.Concurrency + 2 }.TrustingStackCa()) { BaseAddress = o.Target, Timeout = TimeSpan.FromSeconds(60) };
        var admin = new Room.Staff(http, o.Target, o.AdminKey);
        var now = DateTimeOffset.UtcNow;
        var offset = 12 - now.Hour; // the place's clock reads about noon: the day's slots lie ahead
        var zone = offset == 0 ? "Etc/GMT" : offset > 0 ? $"Etc/GMT-{offset}" : $"Etc/GMT+{-offset}";
        var local = now.ToOffset(TimeSpan.FromHours(offset));
        // The first slot 10 to 20 minutes ahead: every booking is inside the door's check-in window.
        var first = local.Date.AddMinutes((((local.Hour * 60) + local.Minute) / 10 * 10) + 20);
        var today = DateOnly.FromDateTime(first);
        var times = Enumerable.Range(0, Times).Select(i => first.AddMinutes(10 * i).ToString("HH:mm", CultureInfo.InvariantCulture)).ToArray();
        var placeId = await PlaceAsync($"Site day {o.RunId}", "Hlavná 1", o.SeatsPerSlot, days: 2);

        var codes = await BookAsync(http, placeId, today, times, "D", o, ct);
        if (codes.Count < o.SeatsPerSlot * Times)
        {
            throw new InvalidOperationException($"Only {codes.Count} of {o.SeatsPerSlot * Times} bookings of the day were made.");
        }

        var roster = $"/api/staff/places/{placeId}/roster?day={Catalog.Day(today)}&pageSize=100";
        await TimedAsync(http, o, "roster", pids, _ => Get(roster), warmup: true, ct); // warm-up, uncounted
        var rosterPhase = await TimedAsync(http, o, "roster", pids, _ => Get(roster), warmup: false, ct);

        // The door's code is as new to the instances as the roster's was: a place of the warm-up's own checks its bookings
        // in first, uncounted, within the warm-up's time.
        long warmups = 0;
        if (o.WarmupSeconds > 0)
        {
            var warm = o with { SeatsPerSlot = Math.Max(1, o.SeatsPerSlot / 4) };
            var warmPlace = await PlaceAsync($"Site day warm-up {o.RunId}", "Hlavná 2", warm.SeatsPerSlot, days: 1);
            var warmed = await TimedAsync(http, o, "check-in", pids, CheckIns(warmPlace, await BookAsync(http, warmPlace, today, times, "W", warm, ct)),
                warmup: true, ct);
            warmups = warmed.Ok.Count;
        }
        var checkIns = await TimedAsync(http, o, "check-in", pids, CheckIns(placeId, codes), warmup: false, ct);
        var after = await ReadAsync(http, o, roster, SiteJson.Default.RosterPage, ct);

        var tomorrow = today.AddDays(1);
        var blockBooked = (await BookAsync(http, placeId, tomorrow, times, "E", o, ct)).Count;
        var started = Stopwatch.GetTimestamp();
        using var cancel = Post($"/api/staff/places/{placeId}/block-cancels",
            JsonSerializer.SerializeToUtf8Bytes(new BlockCancelBody(Catalog.Day(tomorrow), "Výpadok dodávky vakcín"), SiteJson.Default.BlockCancelBody));
        Authorize(cancel, o);
        using var answer = await http.SendAsync(cancel, ct);
        var blockMs = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        var block = await Answers.ReadAsync(answer, SiteJson.Default.BlockCancelAnswer, ct);

        return new SiteReport(o.Target.ToString(), o.StaffToken is null ? "admin machine key" : "staff bearer token", placeId, codes.Count,
            rosterPhase, checkIns, after.Counts, blockBooked, Math.Round(blockMs, 1), block, warmups);

        HttpRequestMessage Get(string path) => new(HttpMethod.Get, path);

        // A place of the run's own in the zone whose clock reads noon, with the day's slots (and the next's: days 2).
        async Task<int> PlaceAsync(string name, string street, int seats, int days)
        {
            var id = await admin.AddPlaceAsync(new NewPlaceBody(name, $"{street}, 040 01 Košice", "loadtest-site", zone, true), ct);
            await admin.GenerateAsync(id, Catalog.Day(today), Catalog.Day(today.AddDays(days - 1)), new TemplateBody(times[0], times[^1], 10, 10),
                seats, days * Times, ct);
            return id;
        }

        // The door's check-ins at the place, each code once, until none is left.
        static Func<long, HttpRequestMessage?> CheckIns(int place, IEnumerable<string> codes)
        {
            var queue = new ConcurrentQueue<string>(codes);
            return _ => queue.TryDequeue(out var code)
                ? Post($"/api/staff/places/{place}/check-ins", JsonSerializer.SerializeToUtf8Bytes(new CheckInBody(code), SiteJson.Default.CheckInBody))
                : null;
        }
    }

    /// <summary>
    /// The phase's requests, <c>concurrency</c> at a time: for <see cref="SiteOptions.Seconds"/> (or its warm-up), or until
    /// <paramref name="next"/> has no more (null). The API's CPU is sampled from the first request to the last answer.
    /// </summary>
    private static async Task<SitePhase> TimedAsync(HttpClient http, SiteOptions o, string name, IReadOnlyList<(string Role, int Pid)> pids,
        Func<long, HttpRequestMessage?> next, bool warmup, CancellationToken ct)
    {
        var recorder = new Recorder();
        await using var cpu = new ProcessSampler(warmup ? [] : pids);
        cpu.Start();
        var started = Stopwatch.GetTimestamp();
        var until = TimeSpan.FromSeconds(warmup ? o.WarmupSeconds : o.Seconds);
        long n = -1;
        await Task.WhenAll(Enumerable.Range(0, o.Concurrency).Select(_ => Task.Run(async () =>
        {
            while (Stopwatch.GetElapsedTime(started) < until && next(Interlocked.Increment(ref n)) is { } request)
            {
                using (request)
                {
                    Authorize(request, o);
                    var sent = Stopwatch.GetTimestamp();
                    try
                    {
                        using var response = await http.SendAsync(request, ct);
                        await response.Content.ReadAsByteArrayAsync(ct);
                        recorder.Answer(name, (int)response.StatusCode, Stopwatch.GetElapsedTime(sent));
                    }
                    catch (HttpRequestException ex)
                    {
                        recorder.Failure(name, $"no answer: {ex.HttpRequestError}");
                    }
                    catch (TaskCanceledException) when (!ct.IsCancellationRequested)
                    {
                        recorder.Failure(name, "timeout");
                    }
                }
            }
        }, ct)));
        var seconds = Stopwatch.GetElapsedTime(started).TotalSeconds;
        var processes = await cpu.StopAsync();
        var ok = recorder.Latencies.Where(kv => kv.Key.StartsWith($"{name} 2", StringComparison.Ordinal)).SelectMany(kv => kv.Value).ToList();
        var notOk = recorder.Latencies.Where(kv => !kv.Key.StartsWith($"{name} 2", StringComparison.Ordinal)).Sum(kv => (long)kv.Value.Count);
        var errors = recorder.Errors.Concat(recorder.Latencies.Where(kv => !kv.Key.StartsWith($"{name} 2", StringComparison.Ordinal))
            .Select(kv => KeyValuePair.Create(kv.Key, (long)kv.Value.Count))).ToDictionary();
        return new SitePhase(name, o.Concurrency, Math.Round(seconds, 2), LatencyStats.Of(ok).Rounded(), notOk, errors, processes);
    }

    /// <summary>One booking per seat of the day's slots, by people of their own, <c>concurrency</c> at a time; answers their codes.</summary>
    private static async Task<List<string>> BookAsync(HttpClient http, int placeId, DateOnly day, string[] times, string group, SiteOptions o, CancellationToken ct)
    {
        var codes = new ConcurrentBag<string>();
        var total = o.SeatsPerSlot * times.Length;
        long next = -1;
        await Task.WhenAll(Enumerable.Range(0, o.Concurrency).Select(_ => Task.Run(async () =>
        {
            long i;
            while ((i = Interlocked.Increment(ref next)) < total)
            {
                var body = new ReserveBody(placeId, Catalog.Day(day), times[i % times.Length], $"Osoba {i}", $"+4219{i:D8}",
                    $"S{o.RunId}{group}{i:D6}", "sk", null);
                using var request = Post("/api/reservations", JsonSerializer.SerializeToUtf8Bytes(body, WireJson.Default.ReserveBody));
                request.Headers.TryAddWithoutValidation("Idempotency-Key", $"site-{o.RunId}-{group}-{i}");
                using var response = await http.SendAsync(request, ct);
                if (response.StatusCode == HttpStatusCode.Created)
                {
                    codes.Add((await Answers.ReadAsync(response, WireJson.Default.ReservationBody, ct)).Code);
                }
            }
        }, ct)));
        return [.. codes];
    }

    private static async Task<T> ReadAsync<T>(HttpClient http, SiteOptions o, string path, System.Text.Json.Serialization.Metadata.JsonTypeInfo<T> type, CancellationToken ct)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, path);
        Authorize(request, o);
        using var response = await http.SendAsync(request, ct);
        return await Answers.ReadAsync(response, type, ct);
    }

    private static HttpRequestMessage Post(string path, byte[] body)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = Json;
        return new HttpRequestMessage(HttpMethod.Post, path) { Content = content };
    }

    private static void Authorize(HttpRequestMessage request, SiteOptions o)
    {
        if (o.StaffToken is { } token)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        }
        else
        {
            request.Headers.Add("X-Api-Key", o.AdminKey);
        }
    }
}
