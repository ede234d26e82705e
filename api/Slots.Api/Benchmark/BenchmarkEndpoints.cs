using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using Slots.Api.Reservations;
using Slots.Places;
using Slots.Reservations;
using Slots.Storage.Ef;
using Slots.Window;

namespace Slots.Api.Benchmark;

public sealed class BenchmarkOptions
{
    public const string Section = "Slots:Benchmark";

    /// <summary>Maps the EF Core baseline and the no-op endpoint (loadtest/). Never on in production.</summary>
    public bool Baseline { get; set; }
}

/// <summary>
/// What the benchmark compares the real reservation with, on the same host, database and load:
/// POST /api/benchmark/reservations, the straightforward EF Core implementation, and
/// POST /api/benchmark/noop, which reads the same body through the same pipeline and answers
/// 204 (the HTTP stack's ceiling). Mapped only when Slots:Benchmark:Baseline is true.
/// </summary>
internal static class BenchmarkEndpoints
{
    public static WebApplication MapBenchmark(this WebApplication app)
    {
        var options = app.Configuration.GetSection(BenchmarkOptions.Section).Get<BenchmarkOptions>() ?? new BenchmarkOptions();
        if (!options.Baseline)
        {
            return app;
        }
        if (app.Services.GetService<IServiceProviderIsService>()?.IsService(typeof(EfDialect)) != true)
        {
            throw new InvalidOperationException(
                "Slots:Benchmark:Baseline needs EF Core for the configured backend; it runs on SQLite and PostgreSQL.");
        }
        var contexts = new Lazy<DbContextOptions<BaselineDbContext>>(() =>
        {
            using var scope = app.Services.CreateScope();
            return BaselineDbContext.OptionsLike(scope.ServiceProvider.GetRequiredService<SlotsDbContext>(), scope.ServiceProvider.GetRequiredService<EfDialect>());
        });
        var group = app.MapGroup("/api/benchmark")
            .WithTags("Benchmark")
            .ExcludeFromDescription()
            .RequireRateLimiting(RateLimits.Writes)
            .RequireConcurrencyLimit();
        group.MapPost("/noop", Noop).WithName("BenchmarkNoop").WithJsonBody<ReserveRequest>();
        group.MapPost("/reservations", (JsonBody<ReserveRequest> body, HttpContext http, ReservationRequests requests, PlaceDirectory places,
                TimeProvider clock, IOptions<WindowOptions> window, EfDialect dialect, CancellationToken ct) =>
                Baseline(body, http, requests, places, clock, window, contexts.Value, dialect, ct))
            .WithName("BenchmarkBaselineReserve").WithJsonBody<ReserveRequest>();
        return app;
    }

    /// <summary>The body is read by the same filter as a booking's; nothing else happens.</summary>
    public static NoContent Noop(JsonBody<ReserveRequest> body) => TypedResults.NoContent();

    public static async Task<Results<Created<ReservationDto>, ProblemHttpResult, ValidationProblem>> Baseline(
        JsonBody<ReserveRequest> body, HttpContext http, ReservationRequests requests, PlaceDirectory places, TimeProvider clock,
        IOptions<WindowOptions> window, DbContextOptions<BaselineDbContext> contexts, EfDialect dialect, CancellationToken ct)
    {
        var v = new Validation();
        var key = http.Request.Headers[ReservationRequests.IdempotencyHeader].ToString();
        if (requests.Booking(body.Value, key, v) is not { } booking)
        {
            return v.ToProblem();
        }
        if (await places.FindAsync(booking.Slot.PlaceId, ct) is not { Active: true } place)
        {
            return Problem.UnknownPlace();
        }
        var now = clock.GetUtcNow();
        var today = LocalClock.Today(place, now);
        var last = today.AddDays(window.Value.Days - 1);
        if (booking.Slot.Day < today || booking.Slot.Day > last)
        {
            return Problem.Invalid("day", $"Bookable days are {Formats.Day(today)} to {Formats.Day(last)}.");
        }
        var (status, code, minutes) = await BaselineReservation.ReserveAsync(contexts, dialect, booking, now, ct);
        switch (status)
        {
            case ReservationStatus.Reserved:
                return TypedResults.Created($"/api/reservations/{code}", new ReservationDto(code!, place.Id, place.Name, place.Address,
                    Formats.Day(booking.Slot.Day), Formats.Time(booking.Slot.StartMinute), minutes, booking.Name, ReservationDto.Booked,
                    Slots.Catalogue.ServiceIds.DefaultCode));
            case ReservationStatus.SlotFull:
                return Problem.Of(ProblemTypes.SlotFull, "This slot has no free seat left.");
            case ReservationStatus.AlreadyBooked:
                return Problem.Of(ProblemTypes.AlreadyBooked, "This person already holds a reservation; cancel or reschedule it first.");
            case ReservationStatus.UnknownSlot:
                return Problem.UnknownSlot();
            case ReservationStatus.SlotStarted:
                return Problem.SlotStarted();
            default:
                http.Response.Headers.RetryAfter = "1";
                return Problem.Of(ProblemTypes.Contention, "Every attempt lost a race for a seat; retry.");
        }
    }
}
