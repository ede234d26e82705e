using System.Reflection;
using Microsoft.OpenApi;
using Newtonsoft.Json;
using Slots.OpenApi.Tests.Generated;
using Slots.OpenApi.Tests.Infrastructure;

namespace Slots.OpenApi.Tests;

/// <summary>
/// Issue #27: a C# client generated from frontend/openapi.json by NSwag (the csproj regenerates it on
/// every change of the snapshot) books, finds, reschedules and cancels through its generated methods
/// alone, and refuses before sending a booking that lacks a field the document marks required.
/// Optional parameters are generated as optional and passed by name, so a parameter the document
/// adds later does not break these calls.
/// </summary>
public sealed class GeneratedClientTests : IAsyncLifetime
{
    private const string Phone = "+421 905 123 456";

    private readonly OpenApiHost _host = new();

    [Fact]
    public async Task The_generated_client_books_finds_reschedules_and_cancels_through_its_own_methods()
    {
        var api = new SlotsClient(_host.Client());
        var (place, first, second) = await TwoFreeSlotsAsync(api);

        var booked = await api.ReserveAsync(idempotency_Key: Guid.NewGuid().ToString(), body: new ReserveRequest
        {
            PlaceId = place.Id,
            Day = first.Of.Day,
            Time = first.At.Time,
            Name = "Jana Nováková",
            Phone = Phone,
            NationalId = "8551011234",
        });
        var found = await api.FindReservationAsync(booked.Code, slots_Phone: Phone);
        var moved = await api.RescheduleReservationAsync(booked.Code, slots_Phone: Phone, body: new RescheduleRequest
        {
            PlaceId = place.Id,
            Day = second.Of.Day,
            Time = second.At.Time,
        });
        await api.CancelReservationAsync(booked.Code, slots_Phone: Phone);
        var gone = await Assert.ThrowsAnyAsync<SlotsApiException>(() => api.FindReservationAsync(booked.Code, slots_Phone: Phone));

        Assert.Equal((first.Of.Day, first.At.Time, "Jana Nováková"), (found.Day, found.Time, found.Name));
        Assert.Equal(booked.Code, moved.Code);
        Assert.Equal((second.Of.Day, second.At.Time), (moved.Day, moved.Time));
        Assert.Contains(gone.StatusCode, new[] { 404, 410 }); // not found, or gone as cancelled
    }

    [Fact]
    public async Task The_generated_client_refuses_a_booking_that_lacks_a_required_field_before_sending_it()
    {
        var sent = new CountingHandler();
        var api = new SlotsClient(_host.Client(sent));
        var reserve = typeof(SlotsClient).GetMethods()
            .Single(m => m.Name == nameof(SlotsClient.ReserveAsync) && m.GetParameters()[^1].ParameterType == typeof(CancellationToken));
        var bodyType = reserve.GetParameters().Single(p => p.ParameterType.Namespace == typeof(SlotsClient).Namespace).ParameterType;
        var required = RequiredMembersOfTheBooking();

        Assert.True(required.Count > 0,
            "frontend/openapi.json marks no member of the Reserve request body required, so no generated client can refuse a booking that lacks one.");
        foreach (var member in required)
        {
            var property = bodyType.GetProperties().Single(p => p.GetCustomAttribute<JsonPropertyAttribute>()?.PropertyName == member);
            if (property.PropertyType.IsValueType && Nullable.GetUnderlyingType(property.PropertyType) is null)
            {
                continue; // a non-nullable member cannot be left out: the compiler refuses the booking
            }
            var booking = CompleteBooking(bodyType);
            property.SetValue(booking, null);

            var refused = await Record.ExceptionAsync(() => Invoke(api, reserve, booking));

            Assert.True(refused is JsonSerializationException,
                $"A booking without '{member}' was not refused by the client: {refused?.GetType().Name ?? "no exception"} {refused?.Message}");
            Assert.Equal(0, sent.Count);
        }
        await Record.ExceptionAsync(() => Invoke(api, reserve, CompleteBooking(bodyType)));
        Assert.Equal(1, sent.Count); // the complete booking does go out, so the count above means nothing was sent
    }

    [Fact]
    public async Task The_generated_client_reads_a_roster_with_a_staff_bearer_token_and_is_refused_without_one()
    {
        var http = _host.Client();
        var api = new SlotsClient(http);
        var place = (await api.ListPlacesAsync()).Items.First();
        var refused = await Assert.ThrowsAnyAsync<SlotsApiException>(() => api.GetRosterAsync(place.Id));

        http.DefaultRequestHeaders.Authorization = new System.Net.Http.Headers.AuthenticationHeaderValue(
            "Bearer", _host.Tokens.For("door-1", "site-staff", place.Id));
        var roster = await api.GetRosterAsync(place.Id, pageSize: 10);

        Assert.Equal(401, refused.StatusCode);
        Assert.Equal(place.Id, roster.PlaceId);
        Assert.Equal(10, roster.PageSize);
        Assert.NotNull(roster.Rows);
    }

    /// <summary>
    /// Two free slots of one place from tomorrow on, as the generated types carry them (a day's type is
    /// whatever the document makes it). Not today's: one of those may start between this read and the booking.
    /// </summary>
    private static async Task<(PlaceDto Place, Slot First, Slot Second)> TwoFreeSlotsAsync(SlotsClient api)
    {
        foreach (var place in (await api.ListPlacesAsync()).Items)
        {
            var local = TimeZoneInfo.ConvertTime(DateTimeOffset.UtcNow, TimeZoneInfo.FindSystemTimeZoneById(place.TimeZone));
            var tomorrow = new DateTimeOffset(local.Date.AddDays(1), TimeSpan.Zero);
            var availability = await api.GetAvailabilityAsync(place.Id, from: tomorrow);
            var free = availability.Days.SelectMany(d => d.Slots.Where(s => s.Free > 0).Select(s => new Slot(d, s))).Take(2).ToList();
            if (free.Count == 2)
            {
                return (place, free[0], free[1]);
            }
        }
        throw new InvalidOperationException("The demo data has no place with two free slots.");
    }

    private sealed record Slot(DayDto Of, SlotDto At);

    /// <summary>The members the document the client was generated from (copied beside the tests) marks required in the body of Reserve.</summary>
    private static List<string> RequiredMembersOfTheBooking()
    {
        var text = File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "openapi.json"));
        var reserve = OpenApiDocument.Parse(text, "json").Document!.Paths.Values
            .SelectMany(p => p.Operations ?? []).Single(o => o.Value.OperationId == "Reserve").Value;
        var schema = reserve.RequestBody!.Content!.Single(c => c.Key.Contains("json", StringComparison.Ordinal)).Value.Schema!;
        return [.. schema.Required ?? new HashSet<string>()];
    }

    /// <summary>A booking with every member set, made by the generated type's own (Newtonsoft) contract.</summary>
    private static object CompleteBooking(Type bodyType) =>
        JsonConvert.DeserializeObject("""
            {"placeId": 1, "day": "2030-01-07", "time": "08:00", "name": "Jana Nováková",
             "phone": "+421 905 123 456", "nationalId": "8551011234", "language": "sk"}
            """, bodyType)!;

    private static Task Invoke(SlotsClient api, MethodInfo reserve, object booking) =>
        (Task)reserve.Invoke(api, [.. reserve.GetParameters().Select(p =>
            p.ParameterType == typeof(string) ? Guid.NewGuid().ToString()
            : p.ParameterType == typeof(CancellationToken) ? CancellationToken.None
            : booking)])!;

    private sealed class CountingHandler : DelegatingHandler
    {
        private int _count;

        public int Count => _count;

        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            Interlocked.Increment(ref _count);
            return base.SendAsync(request, cancellationToken);
        }
    }

    public ValueTask InitializeAsync() => ValueTask.CompletedTask;

    public ValueTask DisposeAsync() => _host.DisposeAsync();
}
