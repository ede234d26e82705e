using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Npgsql;
using Slots.Stack.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Stack.Tests;

/// <summary>
/// Issue #29's restart test: two API instances on one PostgreSQL database serve a sold-out place's
/// waiting list; the one running the scheduler is SIGKILLed while the offer job works through 40
/// freed seats, two offers a run. After its restart the line goes on where it stopped: the first 40
/// in line each hold one seat, no seat held twice, each offer's SMS queued once, and claims through
/// either instance book their seats.
/// </summary>
[Collection(SerialStackTests.Name)]
public sealed class WaitingListKillTests
{
    private const int Seats = 10;   // six slots: 60 bookings

    [Fact]
    public async Task The_line_survives_the_scheduler_killed_mid_offers_and_serves_claims_on_both_instances()
    {
        var ct = TestContext.Current.CancellationToken;
        var server = await StackProcesses.SharedPostgresOrSkipAsync();
        var database = await server.CreateDatabaseAsync("waitlist" + Guid.NewGuid().ToString("N")[..12], ct);
        var scheduler = StackProcesses.ApiSettings(database);
        scheduler["Slots:Scheduler:InProcess"] = "true";
        scheduler["Slots:WaitingList:Every"] = "00:00:00.500";
        scheduler["Slots:WaitingList:OffersPerRun"] = "2";   // twenty runs for forty seats: room to die in the middle
        var plain = StackProcesses.ApiSettings(database);
        await using var other = await ApiProcess.StartAsync(plain, StackProcesses.LogFolder, "waitlist-api2", ct);
        var first = await ApiProcess.StartAsync(scheduler, StackProcesses.LogFolder, "waitlist-api1", ct);
        var day = Places.Day(Places.BookableDay);
        var times = new[] { "08:00", "08:10", "08:20", "08:30", "08:40", "08:50" };
        using var one = new HttpClient { BaseAddress = first.BaseAddress, Timeout = TimeSpan.FromSeconds(30) };
        using var two = new HttpClient { BaseAddress = other.BaseAddress, Timeout = TimeSpan.FromSeconds(30) };
        int place;
        var tokens = new List<string>();
        try
        {
            place = await Places.CreateAsync([first, other], Seats);
            var booked = new List<(string Code, string Phone)>();
            for (var i = 0; i < times.Length * Seats; i++)
            {
                var phone = $"+42191{i:0000000}";
                using var reserve = new HttpRequestMessage(HttpMethod.Post, "/api/reservations")
                {
                    Headers = { { "Idempotency-Key", Guid.NewGuid().ToString() } },
                    Content = JsonContent.Create(new { placeId = place, day, time = times[i / Seats], name = $"Osoba {i}", phone, nationalId = $"77{i:00000000}" }),
                };
                var answer = await (i % 2 == 0 ? one : two).SendAsync(reserve, ct);
                Assert.Equal(HttpStatusCode.Created, answer.StatusCode);
                booked.Add(((await answer.Content.ReadFromJsonAsync<JsonObject>(ct))!["code"]!.GetValue<string>(), phone));
            }
            for (var i = 0; i < 100; i++)
            {
                var joined = await (i % 2 == 0 ? two : one).PostAsJsonAsync("/api/waiting-list",
                    new { placeId = place, from = day, to = day, name = $"Cakatel {i}", phone = $"+42192{i:0000000}", nationalId = $"66{i:00000000}" }, ct);
                Assert.Equal(HttpStatusCode.Created, joined.StatusCode);
                tokens.Add((await joined.Content.ReadFromJsonAsync<JsonObject>(ct))!["token"]!.GetValue<string>());
            }
            foreach (var (code, phone) in booked.Take(40))
            {
                using var cancel = new HttpRequestMessage(HttpMethod.Delete, $"/api/reservations/{code}") { Headers = { { "Slots-Phone", phone } } };
                Assert.Equal(HttpStatusCode.NoContent, (await two.SendAsync(cancel, ct)).StatusCode);
            }
            var started = DateTime.UtcNow;
            long offered;
            while ((offered = await CountAsync(database, "SELECT count(*) FROM waitlist_offers")) < 6)
            {
                Assert.True(DateTime.UtcNow - started < TimeSpan.FromSeconds(30), "No offers within 30 s.\n" + first.LogTail());
                await Task.Delay(20, ct);
            }
            first.Kill();
            Assert.InRange(offered, 6, 39);
        }
        finally
        {
            await first.DisposeAsync();
        }

        await using (var restarted = await ApiProcess.StartAsync(scheduler, StackProcesses.LogFolder, "waitlist-api1b", ct))
        {
            var waited = DateTime.UtcNow;
            while (await CountAsync(database, "SELECT count(*) FROM waitlist_offers") < 40)
            {
                Assert.True(DateTime.UtcNow - waited < TimeSpan.FromSeconds(60), "The line did not go on within 60 s.\n" + restarted.LogTail());
                await Task.Delay(100, ct);
            }
            using var three = new HttpClient { BaseAddress = restarted.BaseAddress, Timeout = TimeSpan.FromSeconds(30) };
            for (var i = 0; i < 10; i++)
            {
                using var claim = new HttpRequestMessage(HttpMethod.Post, "/api/waiting-list/entry/claim") { Headers = { { "Slots-Waiting-List-Token", tokens[i] } } };
                Assert.Equal(HttpStatusCode.Created, (await (i % 2 == 0 ? two : three).SendAsync(claim, ct)).StatusCode);
            }
        }

        // The first forty in line, each offered once, in line order; forty seats held or booked, none twice.
        var entries = await ListAsync(database, "SELECT w.token FROM waitlist_offers o JOIN waitlist w ON w.id = o.entry_id ORDER BY o.id");
        Assert.Equal(tokens.Take(40), entries);
        Assert.Equal(40, await CountAsync(database, "SELECT count(DISTINCT (day, start_minute, seat_no)) FROM waitlist_offers"));
        Assert.Equal(40, await CountAsync(database, "SELECT count(*) FROM outbox WHERE kind = 6"));
        Assert.Equal(40, await CountAsync(database, "SELECT count(DISTINCT code) FROM outbox WHERE kind = 6"));
        Assert.Equal(30, await CountAsync(database, "SELECT count(*) FROM hot_seats WHERE hold = 1 AND offer_id IS NOT NULL AND code IS NULL"));
        Assert.Equal(10, await CountAsync(database, "SELECT count(*) FROM waitlist_offers o JOIN hot_reservations h ON h.code = o.code WHERE o.state = 2"));
        Assert.Equal(0, await CountAsync(database, $"SELECT count(*) FROM hot_seats WHERE day = '{Places.Day(Places.BookableDay)}' AND code IS NULL AND offer_id IS NULL"));
    }

    private static async Task<long> CountAsync(string connectionString, string sql)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(sql, connection);
        return Convert.ToInt64(await command.ExecuteScalarAsync(), System.Globalization.CultureInfo.InvariantCulture);
    }

    private static async Task<List<string>> ListAsync(string connectionString, string sql)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(sql, connection);
        await using var row = await command.ExecuteReaderAsync();
        var values = new List<string>();
        while (await row.ReadAsync())
        {
            values.Add(row.GetString(0));
        }
        return values;
    }
}
