using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Npgsql;
using Slots.Stack.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Stack.Tests;

/// <summary>
/// Issue #28's kill test: an API instance is SIGKILLed in the middle of a site's cancel of 1,200
/// bookings; after a restart the scheduler finishes the block, and every booking is cancelled
/// exactly once with exactly one SMS queued for it.
/// </summary>
[Collection(SerialStackTests.Name)]
public sealed class BlockCancelKillTests
{
    private const int Seats = 200;  // six slots: 1,200 bookings
    private const string Reason = "Vypadok dodavky vakcin";

    [Fact]
    public async Task A_block_cancel_killed_half_way_is_finished_after_a_restart_with_one_sms_per_booking()
    {
        var ct = TestContext.Current.CancellationToken;
        var server = await StackProcesses.SharedPostgresOrSkipAsync();
        var database = await server.CreateDatabaseAsync("block" + Guid.NewGuid().ToString("N")[..12], ct);
        var sms = Path.Combine(StackProcesses.LogFolder, $"block-sms-{Guid.NewGuid():N}.jsonl");
        var settings = StackProcesses.ApiSettings(database);
        settings["Slots:Scheduler:InProcess"] = "true";
        settings["Slots:Scheduler:ResumeBlockCancelsEvery"] = "00:00:01";
        settings["Slots:Staff:BlockCancel:ResumeAfter"] = "00:00:02";
        settings["Slots:Staff:BlockCancel:Batch"] = "20";   // sixty transactions: room to die in the middle
        settings["Slots:Sms:File:Path"] = sms;

        var api = await ApiProcess.StartAsync(settings, StackProcesses.LogFolder, "block-cancel-1", ct);
        int place;
        try
        {
            place = await Places.CreateAsync([api], Seats);
            await BookAllAsync(api, place, ct);
            Assert.Equal(6 * Seats, await CountAsync(database, "SELECT count(*) FROM hot_reservations WHERE place_id = $1", place));

            using var manager = new HttpClient { BaseAddress = api.BaseAddress, Timeout = TimeSpan.FromSeconds(60) };
            manager.DefaultRequestHeaders.Add("X-Api-Key", StackProcesses.AdminKey);
            var cancelling = manager.PostAsJsonAsync($"/api/staff/places/{place}/block-cancels",
                new { day = Places.Day(Places.BookableDay), reason = Reason }, ct);
            // Killed once some, not all, of the bookings are cancelled and told.
            var started = DateTime.UtcNow;
            long told;
            while ((told = await CountAsync(database, "SELECT count(*) FROM outbox WHERE kind = 4 AND place_id = $1", place)) < 100)
            {
                Assert.True(DateTime.UtcNow - started < TimeSpan.FromSeconds(30), "The block cancel did not start within 30 s.");
                await Task.Delay(5, ct);
            }
            api.Kill();
            await Assert.ThrowsAnyAsync<Exception>(() => cancelling);
            Assert.InRange(told, 100, 6 * Seats - 1);
        }
        finally
        {
            await api.DisposeAsync();
        }

        await using (var restarted = await ApiProcess.StartAsync(settings, StackProcesses.LogFolder, "block-cancel-2", ct))
        {
            var waited = DateTime.UtcNow;
            while (await CountAsync(database, "SELECT count(*) FROM site_cancels WHERE place_id = $1 AND finished_at IS NOT NULL", place) == 0)
            {
                Assert.True(DateTime.UtcNow - waited < TimeSpan.FromSeconds(60), "The scheduler did not finish the block within 60 s.\n" + restarted.LogTail());
                await Task.Delay(200, ct);
            }
        }

        Assert.Equal(0, await CountAsync(database, "SELECT count(*) FROM hot_reservations WHERE place_id = $1", place));
        Assert.Equal(6 * Seats, await CountAsync(database, "SELECT count(*) FROM outbox WHERE kind = 4 AND place_id = $1", place));
        Assert.Equal(6 * Seats, await CountAsync(database, "SELECT count(DISTINCT code) FROM outbox WHERE kind = 4 AND place_id = $1", place));
        Assert.Equal(6 * Seats, await CountAsync(database, "SELECT count(*) FROM attendance WHERE state = 5 AND place_id = $1", place));
        Assert.Equal(6 * Seats, await CountAsync(database, "SELECT cancelled FROM site_cancels WHERE place_id = $1", place));
        Assert.Equal(0, await CountAsync(database, "SELECT count(*) FROM outbox WHERE kind = 2 AND place_id = $1", place));
        Assert.Equal(0, await CountAsync(database, "SELECT count(*) FROM hot_seats WHERE place_id = $1 AND day = $2", place, Places.BookableDay));
    }

    private static async Task BookAllAsync(ApiProcess api, int place, CancellationToken ct)
    {
        var times = new[] { "08:00", "08:10", "08:20", "08:30", "08:40", "08:50" };
        var next = 0;
        await Parallel.ForEachAsync(Enumerable.Range(0, 8), ct, async (_, token) =>
        {
            using var client = new HttpClient { BaseAddress = api.BaseAddress, Timeout = TimeSpan.FromSeconds(30) };
            int i;
            while ((i = Interlocked.Increment(ref next) - 1) < times.Length * Seats)
            {
                var n = 10_000_000 + i;
                using var booked = await client.SendAsync(new HttpRequestMessage(HttpMethod.Post, "/api/reservations")
                {
                    Headers = { { "Idempotency-Key", Guid.NewGuid().ToString() } },
                    Content = JsonContent.Create(new
                    {
                        placeId = place,
                        day = Places.Day(Places.BookableDay),
                        time = times[i / Seats],
                        name = $"Osoba {i}",
                        phone = $"+42190{n % 10_000_000:0000000}",
                        nationalId = $"88{n:00000000}",
                        language = i % 2 == 0 ? "sk" : "en",
                    }),
                }, token);
                Assert.True(booked.StatusCode == HttpStatusCode.Created, $"booking {i}: {(int)booked.StatusCode} {await booked.Content.ReadAsStringAsync(token)}");
            }
        });
    }

    private static async Task<long> CountAsync(string connectionString, string sql, params object[] args)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(sql, connection);
        foreach (var arg in args)
        {
            command.Parameters.Add(new NpgsqlParameter { Value = arg });
        }
        return Convert.ToInt64(await command.ExecuteScalarAsync(), System.Globalization.CultureInfo.InvariantCulture);
    }
}
