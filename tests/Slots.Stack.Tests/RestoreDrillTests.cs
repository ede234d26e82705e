using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.Json.Nodes;
using Npgsql;
using Slots.Stack.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Stack.Tests;

/// <summary>
/// The point-in-time-restore drill of docs/reliability.md on the high-availability stack (Patroni, two
/// PostgreSQL nodes, pgBackRest): bookings, a full and an incremental backup, an operator's DROP TABLE,
/// `./slots stack restore --to`, and what a person and the operator must find afterwards.
/// </summary>
[Collection(SerialStackTests.Name)]
public sealed class RestoreDrillTests
{
    private const string AdminKey = "dev-admin-key-0000"; // appsettings.Development.json: the stack runs as Development

    [Fact]
    public async Task A_dropped_table_is_restored_to_a_moment_with_every_booking_before_it_and_no_SMS_sent_twice()
    {
        foreach (var tool in new[] { "/usr/bin/etcd", "/usr/bin/patroni", "/usr/bin/pgbackrest" })
        {
            if (!File.Exists(tool))
            {
                Unavailable.SkipOrFail($"{tool} is not installed (apt-get install etcd-server patroni pgbackrest; ./slots test installs them).");
            }
        }
        StackProcesses.SkipWithoutHaproxy();
        var ct = TestContext.Current.CancellationToken;
        var state = Directory.CreateTempSubdirectory("slots-restore-drill-");
        var env = Environment(state.FullName);
        var output = TestContext.Current.TestOutputHelper;
        try
        {
            await Stack(env, ct, "up", "--ha");
            // HTTPS only, as the stack serves it: trust the stack's local CA and no other.
            using var front = new HttpClient(HaproxyServer.TrustingStackCa(state.FullName))
            {
                BaseAddress = new Uri($"https://127.0.0.1:{Port.Front}"),
                Timeout = TimeSpan.FromSeconds(30),
            };
            var placeId = await CreatePlaceAsync(front);
            var database = $"Host=127.0.0.1;Port={Port.Postgres};Database=slots;Username=postgres;Pooling=false";

            // 1. Book, back up (full), book, back up (incremental).
            var beforeFull = await BookAsync(front, placeId, 30);
            output?.WriteLine(await Stack(env, ct, "backup", "--type", "full"));
            var beforeIncr = await BookAsync(front, placeId, 15);
            output?.WriteLine(await Stack(env, ct, "backup", "--type", "incr"));

            // The SMS of the last bookings before the target are sent only after it (the scheduler is
            // stopped meanwhile): after the restore their outbox rows are unsent again and relayed a second time.
            await Stack(env, ct, "stop", "scheduler");
            var unsentAtTarget = await BookAsync(front, placeId, 10);
            var target = await ScalarAsync<string>(database, "SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'");
            await Task.Delay(1100, ct);
            // Bookings after the target: lost by the restore; their SMS go out, under outbox ids a restore must not hand out again.
            var afterTarget = await BookAsync(front, placeId, 8);
            await Stack(env, ct, "start", "scheduler");
            var confirmed = beforeFull.Concat(beforeIncr).Concat(unsentAtTarget).ToArray();
            await WaitForSmsAsync(state.FullName, confirmed.Concat(afterTarget).Select(b => b.Code), ct);

            // 2. The operator's mistake.
            await ExecuteAsync(database, "DROP TABLE hot_reservations CASCADE");

            // 3. Back to the moment before it.
            var restore = System.Diagnostics.Stopwatch.StartNew();
            var restoredAt = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
            output?.WriteLine(await Stack(env, ct, "restore", "--to", target));
            output?.WriteLine($"restore to {target}: {restore.Elapsed.TotalSeconds:0.0} s; the stack's logs go to {StackProcesses.LogFolder}/restore-drill");

            // 4. Every booking confirmed before the target is back, whole: seat, person, its confirmation
            //    message (hot_reservations.event_id: the outbox id it takes when the row leaves, the SMS's id).
            var rows = await ReadBookingsAsync(database, placeId);
            foreach (var booking in confirmed)
            {
                Assert.True(rows.TryGetValue(booking.Code, out var row), $"Booking {booking.Code} (confirmed before the target) is missing after the restore.");
                Assert.Equal(booking.Name, row.Name);
                Assert.Equal(booking.Phone, row.Phone);
                Assert.Equal(booking.Code, row.SeatCode);
                Assert.NotNull(row.MessageId);
                Assert.True(row.ActivePerson, $"Booking {booking.Code}'s person is not in active_persons.");
            }
            Assert.All(afterTarget, b => Assert.False(rows.ContainsKey(b.Code), $"Booking {b.Code} was made after the target and is back."));
            Assert.Equal(confirmed.Length, rows.Count);
            Assert.Equal(rows.Count, rows.Values.Select(r => r.MessageId).Distinct().Count());

            // The window goes on: a new booking, and its SMS through the restarted scheduler.
            var afterRestore = await BookAsync(front, placeId, 5);
            await WaitForSmsAsync(state.FullName, confirmed.Concat(afterTarget).Concat(afterRestore).Select(b => b.Code), ct);
            // The unsent-at-target messages went through the consumer again after the restore ...
            var resent = await ScalarAsync<long>(database,
                $"SELECT count(*) FROM sms_sent WHERE code = ANY(@codes) AND kind = 1 AND status = 1 AND sent_at >= {restoredAt}",
                ("codes", unsentAtTarget.Select(b => b.Code).ToArray()));
            Assert.Equal(unsentAtTarget.Length, resent);

            // ... and no person got an SMS twice: one line per booking in the sink, one per message id.
            var sink = await ReadSinkAsync(state.FullName, ct);
            Assert.Equal(sink.Count, sink.Select(l => l.Id).Distinct().Count());
            foreach (var booking in confirmed.Concat(afterTarget).Concat(afterRestore))
            {
                Assert.Single(sink, l => l.Text.EndsWith("Kod: " + booking.Code, StringComparison.Ordinal));
            }
            // The restored bookings' SMS carry their own message ids; the new ones' lie past the ids of the lost ones.
            Assert.All(confirmed, b => Assert.Equal(rows[b.Code].MessageId, sink.Single(l => l.Text.EndsWith("Kod: " + b.Code, StringComparison.Ordinal)).Id));
            var lostIds = afterTarget.Select(b => sink.Single(l => l.Text.EndsWith("Kod: " + b.Code, StringComparison.Ordinal)).Id).ToArray();
            Assert.All(afterRestore, b => Assert.True(sink.Single(l => l.Text.EndsWith("Kod: " + b.Code, StringComparison.Ordinal)).Id > lostIds.Max()));
        }
        finally
        {
            // The stack's logs outlive it, beside the other stack tests' (a failure is read there), then everything goes.
            await Scripts.StackAsync(["down"], env, CancellationToken.None);
            CopyFolder(Path.Combine(state.FullName, "logs"), Path.Combine(StackProcesses.LogFolder, "restore-drill"));
            await Scripts.StackAsync(["wipe"], env, CancellationToken.None);
            state.Refresh();
            if (state.Exists)
            {
                state.Delete(recursive: true);
            }
        }
    }

    private static void CopyFolder(string from, string to)
    {
        if (!Directory.Exists(from))
        {
            return;
        }
        foreach (var file in Directory.EnumerateFiles(from, "*", SearchOption.AllDirectories))
        {
            var target = Path.Combine(to, Path.GetRelativePath(from, file));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target, overwrite: true);
        }
    }

    private sealed record Booked(string Code, string Name, string Phone);

    private sealed record Row(string Name, string Phone, string? SeatCode, long? MessageId, bool ActivePerson);

    private sealed record SinkLine(long Id, string Text);

    /// <summary>Ports of its own, below the ephemeral range, apart from the chaos soaks' and the default stack's.</summary>
    private static class Port
    {
        public const int Front = 27480;
        public const int Redirect = 27476;   // plain HTTP, redirecting; the second HAProxy's is the next port
        public const int Postgres = 27490;
    }

    private static Dictionary<string, string> Environment(string state) => new()
    {
        ["SLOTS_STACK_DIR"] = state,
        ["SLOTS_STACK_BUILD"] = "0",
        // The configuration these tests were built in: artifacts/bin/Slots.Api/<pivot>/ beside this assembly's.
        ["SLOTS_STACK_CONFIGURATION"] = Path.GetFileName(Path.TrimEndingDirectorySeparator(AppContext.BaseDirectory)),
        ["SLOTS_RATE_WRITES"] = "100000",
        ["SLOTS_RATE_READS"] = "100000",
        ["SLOTS_STACK_WAIT_S"] = "120",
        ["SLOTS_PG_NODES"] = "2",
        ["SLOTS_API_COUNT"] = "1",
        ["SLOTS_SCHEDULER_COUNT"] = "1",
        ["SLOTS_ARCHIVE_TIMEOUT"] = "10s",
        ["SLOTS_FRONT_PORT"] = Port.Front.ToString(CultureInfo.InvariantCulture),
        ["SLOTS_REDIRECT_PORT"] = Port.Redirect.ToString(CultureInfo.InvariantCulture),
        ["SLOTS_STATS_PORT"] = "27484",
        ["SLOTS_PG_PORT"] = Port.Postgres.ToString(CultureInfo.InvariantCulture),
        ["SLOTS_API_FIRST_PORT"] = "27501",
        ["SLOTS_SCHEDULER_PORT"] = "27510",
        ["SLOTS_EPMD_PORT"] = "27520",
        ["SLOTS_ETCD_FIRST_PORT"] = "27530",
        ["SLOTS_PG_NODE_FIRST_PORT"] = "27541",
        ["SLOTS_PATRONI_FIRST_PORT"] = "27551",
        ["SLOTS_RABBIT_FIRST_PORT"] = "27560",
        ["SLOTS_PEER_FIRST_PORT"] = "27590",
    };

    private static async Task<string> Stack(Dictionary<string, string> env, CancellationToken ct, params string[] arguments)
    {
        var (exitCode, output, errors) = await Scripts.StackAsync(arguments, env, ct);
        Assert.True(exitCode == 0, $"./slots stack {string.Join(' ', arguments)} exited {exitCode}:\n{output}\n{errors}");
        return output;
    }

    private static async Task<int> CreatePlaceAsync(HttpClient front)
    {
        using var admin = new HttpRequestMessage(HttpMethod.Post, "/api/admin/places")
        {
            Headers = { { "X-Api-Key", AdminKey } },
            Content = JsonContent.Create(new { name = $"Drill site {Guid.NewGuid():N}", address = "Hlavná 1, 811 01 Bratislava", region = "Bratislavský kraj", timeZone = "Europe/Bratislava" }),
        };
        var created = await front.SendAsync(admin);
        Assert.True(created.IsSuccessStatusCode, $"creating the place answered {created.StatusCode}: {await created.Content.ReadAsStringAsync()}");
        var id = (await created.Content.ReadFromJsonAsync<JsonObject>())!["id"]!.GetValue<int>();
        using var generate = new HttpRequestMessage(HttpMethod.Post, "/api/admin/slots/generate")
        {
            Headers = { { "X-Api-Key", AdminKey } },
            Content = JsonContent.Create(new
            {
                placeIds = new[] { id },
                from = Places.Day(Places.BookableDay),
                to = Places.Day(Places.BookableDay.AddDays(1)),
                template = new { firstStart = "08:00", lastStart = "08:50", intervalMinutes = 10, lengthMinutes = 10 },
                capacity = 20,
            }),
        };
        var generated = await front.SendAsync(generate);
        Assert.True(generated.IsSuccessStatusCode, $"generating slots answered {generated.StatusCode}: {await generated.Content.ReadAsStringAsync()}");
        return id;
    }

    /// <summary>Books <paramref name="count"/> new persons through HAProxy, a few at a time; every one must be confirmed.</summary>
    private static async Task<Booked[]> BookAsync(HttpClient front, int placeId, int count)
    {
        var booked = new List<Booked>();
        foreach (var chunk in Enumerable.Range(0, count).Chunk(5))
        {
            var round = chunk.Select(async i =>
            {
                var person = Places.NextPerson();
                var booking = new Booking(placeId, Places.BookableDay, Places.Times[i % Places.Times.Length], person);
                var attempt = await booking.SendUntilAnsweredAsync(front, maxAttempts: 20);
                Assert.True(attempt.Status == HttpStatusCode.Created, $"booking answered {attempt.Status} {attempt.Code}");
                return new Booked(booking.Code!, $"Osoba {person}", string.Create(CultureInfo.InvariantCulture, $"+4219{person % 100_000_000:00000000}"));
            });
            booked.AddRange(await Task.WhenAll(round));
        }
        return [.. booked];
    }

    private static async Task WaitForSmsAsync(string state, IEnumerable<string> codes, CancellationToken ct)
    {
        var wanted = codes.ToHashSet();
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (true)
        {
            var sink = await ReadSinkAsync(state, ct);
            var missing = wanted.Where(c => !sink.Any(l => l.Text.EndsWith("Kod: " + c, StringComparison.Ordinal))).ToList();
            if (missing.Count == 0)
            {
                return;
            }
            Assert.True(DateTime.UtcNow < deadline, $"{missing.Count} of {wanted.Count} bookings have no SMS after 60 s.");
            await Task.Delay(500, ct);
        }
    }

    private static async Task<List<SinkLine>> ReadSinkAsync(string state, CancellationToken ct)
    {
        var path = Path.Combine(state, "sms", "scheduler.jsonl");
        if (!File.Exists(path))
        {
            return [];
        }
        var lines = new List<SinkLine>();
        foreach (var line in await File.ReadAllLinesAsync(path, ct))
        {
            if (line.Length == 0)
            {
                continue;
            }
            var json = JsonDocument.Parse(line).RootElement;
            lines.Add(new SinkLine(json.GetProperty("id").GetInt64(), json.GetProperty("text").GetString()!));
        }
        return lines;
    }

    private static async Task<Dictionary<string, Row>> ReadBookingsAsync(string connectionString, int placeId)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand("""
            SELECT r.code, r.name, r.phone, s.code, r.event_id,
                   EXISTS (SELECT 1 FROM active_persons a WHERE a.code = r.code)
            FROM hot_reservations r
            LEFT JOIN hot_seats s ON (s.place_id, s.day, s.start_minute, s.seat_no) = (r.place_id, r.day, r.start_minute, r.seat_no)
            WHERE r.place_id = @place
            """, connection);
        command.Parameters.AddWithValue("place", placeId);
        var rows = new Dictionary<string, Row>();
        await using var reader = await command.ExecuteReaderAsync();
        while (await reader.ReadAsync())
        {
            rows[reader.GetString(0)] = new Row(reader.GetString(1), reader.GetString(2), reader.IsDBNull(3) ? null : reader.GetString(3),
                reader.IsDBNull(4) ? null : reader.GetInt64(4), reader.GetBoolean(5));
        }
        return rows;
    }

    private static async Task<T> ScalarAsync<T>(string connectionString, string sql, params (string Name, object Value)[] parameters)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(sql, connection);
        foreach (var (name, value) in parameters)
        {
            command.Parameters.AddWithValue(name, value);
        }
        return (T)(await command.ExecuteScalarAsync())!;
    }

    private static async Task ExecuteAsync(string connectionString, string sql)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(sql, connection);
        await command.ExecuteNonQueryAsync();
    }
}
