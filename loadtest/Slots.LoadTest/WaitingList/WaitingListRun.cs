using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using Slots.LoadTest.Reporting;
using Slots.LoadTest.Room;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.WaitingList;

public sealed record WaitingListOptions(Uri Target, string AdminKey, string RunId, int Line, int Seconds, int SettleSeconds, int Seed);

/// <summary>
/// The waiting list with the product's own job intervals (Slots:WaitingList:Every), against a running API: a place of its
/// own with 100 slots of one seat two days ahead, every one booked; a line of people joins; over <c>seconds</c> the 100
/// bookings are cancelled at random moments. The head of the line is watched as a person's page would (every 100 ms);
/// an offered person claims it after 0.1–2 s, or one in five declines by leaving the line (the seat goes to the next).
/// </summary>
public static class WaitingListRun
{
    private const int Seats = 100;
    private const int Watched = 20; // entries at the head of the line read on each look
    private static readonly TimeSpan Look = TimeSpan.FromMilliseconds(100);
    private const int SlowestShown = 5; // the slowest claims named with their moment: a p99 of 100 is the slowest but one
    private static readonly MediaTypeHeaderValue Json = new("application/json");

    public static async Task<WaitingListReport> RunAsync(WaitingListOptions o, IReadOnlyList<(string Role, int Pid)> pids, CancellationToken ct)
    {
        using var http = new HttpClient(new SocketsHttpHandler { MaxConnectionsPerServer = 32 }.TrustingStackCa()) { BaseAddress = o.Target, Timeout = TimeSpan.FromSeconds(60) };
        var admin = new Room.Staff(http, o.Target, o.AdminKey);
        var zone = TimeZoneInfo.FindSystemTimeZoneById("Europe/Bratislava");
        var day = Catalog.Day(DateOnly.FromDateTime(TimeZoneInfo.ConvertTime(DateTimeOffset.UtcNow, zone).DateTime).AddDays(2));
        var placeId = await admin.AddPlaceAsync(new NewPlaceBody($"Waiting list {o.RunId}", "Hlavná 1, 040 01 Košice", "loadtest-waitlist", zone.Id, true), ct);
        await admin.GenerateAsync(placeId, day, day, new TemplateBody("07:00", "15:15", 5, 5), 1, Seats, ct);
        var times = Enumerable.Range(0, Seats).Select(i => new TimeOnly(7, 0).AddMinutes(5 * i).ToString("HH:mm", CultureInfo.InvariantCulture)).ToArray();

        var holders = new List<(string Code, string Phone, string Time)>();
        foreach (var (time, i) in times.Select((t, i) => (t, i)))
        {
            var phone = $"+4219{i + 10_000_000}";
            var body = new ReserveBody(placeId, day, time, $"Osoba {i}", phone, $"W{o.RunId}H{i:D6}", "sk", null);
            using var answer = await SendAsync(http, HttpMethod.Post, "/api/reservations", JsonSerializer.SerializeToUtf8Bytes(body, WireJson.Default.ReserveBody),
                ("Idempotency-Key", $"wl-{o.RunId}-{i}"), ct);
            holders.Add(((await Answers.ReadAsync(answer, WireJson.Default.ReservationBody, ct)).Code, phone, time));
        }
        var tokens = new List<string>(o.Line);
        for (var i = 0; i < o.Line; i++)
        {
            var join = new JoinBody(placeId, day, day, $"Osoba L{i}", $"+4219{i + 20_000_000}", $"W{o.RunId}L{i:D6}", "sk");
            using var answer = await SendAsync(http, HttpMethod.Post, "/api/waiting-list", JsonSerializer.SerializeToUtf8Bytes(join, WaitingListJson.Default.JoinBody), null, ct);
            tokens.Add((await Answers.ReadAsync(answer, WaitingListJson.Default.EntryBody, ct)).Token!);
        }

        await using var cpu = new ProcessSampler(pids);
        cpu.Start();
        var rng = new Random(o.Seed);             // the cancels' moments and order
        var people = new Random(o.Seed + 1);      // who claims and when: the watcher's own
        var cancelledAt = new ConcurrentDictionary<string, long>();   // slot time -> when its cancel was answered
        var toOffer = new ConcurrentDictionary<string, double>();     // slot time -> ms from its cancel to its first offer seen
        var claims = new ConcurrentBag<(long Sent, double Ms)>();
        var claimedTimes = new ConcurrentBag<string>();
        var refused = new ConcurrentDictionary<string, long>();
        var decisions = new ConcurrentBag<Task>();
        var offered = 0;
        var declined = 0;
        var seen = new bool[tokens.Count]; // offered once: the watcher's own, read by the settle after it stops writing
        using var stop = new CancellationTokenSource();
        var watcher = Task.Run(async () =>
        {
            var head = 0;
            while (!stop.IsCancellationRequested)
            {
                for (var i = head; i < Math.Min(tokens.Count, head + Watched); i++)
                {
                    if (seen[i])
                    {
                        continue;
                    }
                    var entry = await EntryAsync(http, tokens[i], ct);
                    if (entry is { State: "offered", Offer: { } offer })
                    {
                        seen[i] = true;
                        Interlocked.Increment(ref offered);
                        if (cancelledAt.TryGetValue(offer.Time, out var at))
                        {
                            toOffer.TryAdd(offer.Time, Stopwatch.GetElapsedTime(at).TotalMilliseconds);
                        }
                        var claim = people.NextDouble() >= 0.2;
                        var after = TimeSpan.FromSeconds(0.1 + (people.NextDouble() * 1.9));
                        if (!claim)
                        {
                            Interlocked.Increment(ref declined);
                        }
                        decisions.Add(DecideAsync(http, tokens[i], offer.Time, claim, after, claims, claimedTimes, refused, ct));
                    }
                }
                while (head < tokens.Count && seen[head])
                {
                    head++;
                }
                await Task.Delay(Look, ct);
            }
        }, ct);

        var started = Stopwatch.GetTimestamp();
        var moments = Enumerable.Range(0, Seats).Select(_ => rng.NextDouble() * o.Seconds).Order().ToList();
        foreach (var (holder, moment) in holders.OrderBy(_ => rng.Next()).Zip(moments))
        {
            var wait = TimeSpan.FromSeconds(moment) - Stopwatch.GetElapsedTime(started);
            if (wait > TimeSpan.Zero)
            {
                await Task.Delay(wait, ct);
            }
            using var cancel = await SendAsync(http, HttpMethod.Delete, $"/api/reservations/{holder.Code}", null, ("Slots-Phone", holder.Phone), ct);
            if (cancel.StatusCode != HttpStatusCode.NoContent)
            {
                throw new InvalidOperationException($"A holder's cancel answered {(int)cancel.StatusCode}.");
            }
            cancelledAt[holder.Time] = Stopwatch.GetTimestamp();
        }
        // The last offers, their claims, and declined seats going to the next in line: until every cancelled seat is
        // booked through the line or held, with no decision pending, or the settle time is up.
        var settle = Stopwatch.GetTimestamp();
        while (Stopwatch.GetElapsedTime(settle) < TimeSpan.FromSeconds(o.SettleSeconds))
        {
            await Task.Delay(TimeSpan.FromMilliseconds(500), ct);
            var pending = decisions.ToArray();
            if (toOffer.Count < cancelledAt.Count || !pending.All(d => d.IsCompleted))
            {
                continue;
            }
            var offeredNow = await Task.WhenAll(tokens.Where((_, i) => seen[i]).Select(t => EntryAsync(http, t, ct)));
            if (claims.Count + offeredNow.Count(e => e is { State: "offered" }) == cancelledAt.Count && decisions.Count == pending.Length)
            {
                break;
            }
        }
        await stop.CancelAsync();
        await watcher.ContinueWith(_ => { }, CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Default);
        await Task.WhenAll(decisions);
        var seconds = Stopwatch.GetElapsedTime(started).TotalSeconds;
        var slowest = claims.OrderByDescending(c => c.Ms).Take(SlowestShown)
            .Select(c => new TimedClaim(Math.Round((c.Sent - started) / (double)Stopwatch.Frequency, 1), Math.Round(c.Ms, 1))).ToList();
        var processes = await cpu.StopAsync();

        var states = await Task.WhenAll(tokens.Select(t => EntryAsync(http, t, ct)));
        var open = states.Where(e => e is { State: "offered" }).Select(e => e!.Offer!.Time).ToList();
        var held = open.Concat(claimedTimes).ToList();
        using var rosterAnswer = await SendAsync(http, HttpMethod.Get, $"/api/staff/places/{placeId}/roster?day={day}&pageSize=100", null, ("X-Api-Key", o.AdminKey), ct);
        var roster = await Answers.ReadAsync(rosterAnswer, Site.SiteJson.Default.RosterPage, ct);
        return new WaitingListReport(o.Target.ToString(), Seats, o.Line, Math.Round(seconds, 1), cancelledAt.Count, offered, claims.Count, declined,
            LatencyStats.Of(toOffer.Values.ToList()).Rounded(), LatencyStats.Of(claims.Select(c => c.Ms).ToList()).Rounded(), refused, roster.Counts.Booked, open.Count,
            held.Count - held.Distinct().Count(), processes, slowest);
    }

    private static async Task DecideAsync(HttpClient http, string token, string time, bool claim, TimeSpan after, ConcurrentBag<(long Sent, double Ms)> claims,
        ConcurrentBag<string> claimedTimes, ConcurrentDictionary<string, long> refused, CancellationToken ct)
    {
        await Task.Delay(after, ct);
        var sent = Stopwatch.GetTimestamp();
        using var answer = await SendAsync(http, claim ? HttpMethod.Post : HttpMethod.Delete, claim ? "/api/waiting-list/entry/claim" : "/api/waiting-list/entry",
            null, ("Slots-Waiting-List-Token", token), ct);
        var took = Stopwatch.GetElapsedTime(sent).TotalMilliseconds;
        if (claim && answer.StatusCode == HttpStatusCode.Created)
        {
            claims.Add((sent, took));
            claimedTimes.Add(time);
        }
        else if (!answer.IsSuccessStatusCode)
        {
            var problem = Answers.ReadProblem(await answer.Content.ReadAsByteArrayAsync(ct))?.Code ?? "";
            refused.AddOrUpdate($"{(claim ? "claim" : "leave")} {(int)answer.StatusCode} {problem}".TrimEnd(), 1, static (_, n) => n + 1);
        }
    }

    private static async Task<EntryBody?> EntryAsync(HttpClient http, string token, CancellationToken ct)
    {
        using var answer = await SendAsync(http, HttpMethod.Get, "/api/waiting-list/entry", null, ("Slots-Waiting-List-Token", token), ct);
        return answer.IsSuccessStatusCode ? await Answers.ReadAsync(answer, WaitingListJson.Default.EntryBody, ct) : null;
    }

    private static Task<HttpResponseMessage> SendAsync(HttpClient http, HttpMethod method, string path, byte[]? body, (string Name, string Value)? header, CancellationToken ct)
    {
        var request = new HttpRequestMessage(method, path);
        if (body is not null)
        {
            request.Content = new ByteArrayContent(body);
            request.Content.Headers.ContentType = Json;
        }
        if (header is { } h)
        {
            request.Headers.TryAddWithoutValidation(h.Name, h.Value);
        }
        return http.SendAsync(request, ct);
    }
}
