using System.Collections.Concurrent;
using System.Net;
using System.Net.Http.Json;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Slots.Persons;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Retention;

/// <summary>
/// Where a person's data must never go (#39): through a person's whole life in the API (a booking, a
/// second try, bad input, look-ups with the right and a wrong proof, a move, the waiting list, their
/// data's view and erasure, and the SMS this sends), no log line at any level down to Debug holds
/// their national id, name, phone or hash, and the SMS sink (which is the phone) never holds the
/// national id or its hash.
/// </summary>
public sealed class PersonalDataTraceTests(SqliteBackend backend) : IClassFixture<SqliteBackend>
{
    /// <summary>Every log entry of the host: its message, its structured values, its exception.</summary>
    private sealed class Recorder : ILoggerProvider
    {
        public ConcurrentQueue<string> Lines { get; } = new();

        public ILogger CreateLogger(string categoryName) => new Logger(categoryName, Lines);

        public void Dispose()
        {
        }

        private sealed class Logger(string category, ConcurrentQueue<string> lines) : ILogger
        {
            public IDisposable? BeginScope<TState>(TState state)
                where TState : notnull
            {
                lines.Enqueue($"{category} scope: {Describe(state)}");
                return null;
            }

            public bool IsEnabled(LogLevel logLevel) => true;

            public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
                lines.Enqueue($"{category} {logLevel}: {formatter(state, exception)} | {Describe(state)} | {exception}");

            private static string Describe<TState>(TState state) =>
                state is IEnumerable<KeyValuePair<string, object?>> values
                    ? string.Join("; ", values.Select(v => $"{v.Key}={v.Value}"))
                    : state?.ToString() ?? "";
        }
    }

    /// <summary>A person whose every field is a string nothing else in a run could hold by chance.</summary>
    private static Person Distinct()
    {
        string Letters(int n) => new([.. Enumerable.Range(0, n).Select(_ => (char)('A' + Random.Shared.Next(26)))]);
        return new Person("Osoba " + Letters(10), $"+4219{Random.Shared.Next(10_000_000, 99_999_999)}", "NID" + Letters(12));
    }

    private static HttpRequestMessage Proven(HttpMethod method, string url, string nationalId, object? body = null)
    {
        var request = new HttpRequestMessage(method, url) { Headers = { { "Slots-National-Id", nationalId } } };
        if (body is not null)
        {
            request.Content = JsonContent.Create(body);
        }
        return request;
    }

    [Fact]
    public async Task No_log_line_holds_a_person_s_data_and_the_SMS_sink_never_holds_the_national_id()
    {
        var ct = TestContext.Current.CancellationToken;
        var sink = Path.Combine(Directory.CreateTempSubdirectory("slots-sink-").FullName, "sms.jsonl");
        var recorder = new Recorder();
        var settings = await backend.CreateDatabaseAsync("trace" + Guid.NewGuid().ToString("N")[..12], ct);
        await using var host = new SlotsHost(settings, new Dictionary<string, string?>
        {
            ["Logging:LogLevel:Default"] = "Debug",
            ["Slots:Sms:Transport"] = "Direct",
            ["Slots:Sms:File:Path"] = sink,
            ["Slots:Sms:RelayInterval"] = "00:00:00.200",
        }, services => services.AddSingleton<ILoggerProvider>(recorder));
        var client = host.Client();
        var person = Distinct();
        var soon = Today.AddDays(2);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1, day: soon);

        // A booking, the same person again (one active booking), and bad input carrying the person's data.
        var booked = await client.SendAsync(Reserve(place, soon, "08:00", person), ct);
        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        var code = (await JsonAsync(booked))["code"]!.GetValue<string>();
        Assert.Equal(HttpStatusCode.Conflict, (await client.SendAsync(Reserve(place, soon, "08:10", person), ct)).StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, (await client.SendAsync(Reserve(place, soon, "08:10", person with { Phone = person.Phone + "x" }), ct)).StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, (await client.SendAsync(Reserve(place, soon, "08:10", person with { NationalId = person.NationalId + "?" }), ct)).StatusCode);

        // Look-ups with the right proof, each kind, and a wrong one; a move; the waiting list of a full slot.
        Assert.Equal(HttpStatusCode.OK, (await client.SendAsync(Proven(HttpMethod.Get, $"/api/reservations/{code}", person.NationalId), ct)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone), ct)).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await client.SendAsync(Proven(HttpMethod.Get, $"/api/reservations/{code}", "NID" + person.NationalId[3..^1]), ct)).StatusCode);
        var moved = await client.SendAsync(Proven(HttpMethod.Post, $"/api/reservations/{code}/reschedule", person.NationalId, new { placeId = place, day = Day(soon), time = "08:20" }), ct);
        Assert.True(moved.IsSuccessStatusCode, $"the move answered {(int)moved.StatusCode}");
        var other = Distinct();
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(place, soon, "08:00", other), ct)).StatusCode);
        var joined = await client.SendAsync(new HttpRequestMessage(HttpMethod.Post, "/api/waiting-list")
        {
            Content = JsonContent.Create(new { placeId = place, from = Day(soon), to = Day(soon), name = person.Name, phone = person.Phone, nationalId = person.NationalId, language = "en" }),
        }, ct);
        Assert.True((int)joined.StatusCode < 500, $"joining the waiting list answered {(int)joined.StatusCode}");

        // The person's own view and erasure, which cancels the booking ahead with an SMS.
        Assert.Equal(HttpStatusCode.OK, (await client.SendAsync(Proven(HttpMethod.Get, $"/api/reservations/{code}/personal-data", person.NationalId), ct)).StatusCode);
        var erased = await client.SendAsync(Proven(HttpMethod.Delete, $"/api/reservations/{code}/personal-data", person.NationalId), ct);
        Assert.True(erased.IsSuccessStatusCode, $"the erasure answered {(int)erased.StatusCode}");

        // The confirmation, the move and the cancellation reach the sink (the other person's booking too).
        // (The sink's JSON writes the phone's "+" escaped: its digits are what to look for.)
        var digits = person.Phone[1..];
        var deadline = DateTime.UtcNow.AddSeconds(60);
        string[] sent = [];
        while (DateTime.UtcNow < deadline)
        {
            sent = File.Exists(sink) ? await File.ReadAllLinesAsync(sink, ct) : [];
            if (sent.Count(line => line.Contains(digits, StringComparison.Ordinal)) >= 3)
            {
                break;
            }
            await Task.Delay(200, ct);
        }
        Assert.True(sent.Count(line => line.Contains(digits, StringComparison.Ordinal)) >= 3,
            $"the sink holds {sent.Length} messages, {sent.Count(line => line.Contains(digits, StringComparison.Ordinal))} to the person; expected the booking's, the move's and the cancel's");

        var normalized = PersonIdentity.NormalizeNationalId(person.NationalId)!;
        var hash = host.Services.GetRequiredService<PersonIdentity>().Hash(normalized);
        string[] identity = [person.NationalId, normalized, hash];
        var sinkText = string.Join('\n', sent);
        Assert.DoesNotContain(identity, sinkText.Contains);

        var logs = recorder.Lines.ToArray();
        Assert.True(logs.Length > 50, $"only {logs.Length} log lines were recorded: the recorder is not the host's");
        string[] personal = [.. identity, person.Name, person.Phone, person.Phone[1..]];
        var leaks = logs.Where(line => personal.Any(p => line.Contains(p, StringComparison.OrdinalIgnoreCase))).ToArray();
        Assert.True(leaks.Length == 0, "log lines holding the person's data:\n" + string.Join('\n', leaks.Take(5)));
    }
}
