using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using Slots.Api.Places;

namespace Slots.Api.Admin;

// Requests: nullable members so a missing one is answered with its name; the attributes are what
// the OpenAPI document states, and the handlers enforce the same.

public sealed record CreatePlaceRequest(
    [property: Required, StringLength(200, MinimumLength = 1), RegularExpression(Patterns.Text)] string? Name,
    [property: Required, StringLength(300, MinimumLength = 1), RegularExpression(Patterns.Text)] string? Address,
    [property: Required, StringLength(100, MinimumLength = 1), RegularExpression(Patterns.Text)] string? Region,
    [property: Required, StringLength(100, MinimumLength = 1), Description("An IANA time zone id, e.g. Europe/Bratislava.")] string? TimeZone,
    [property: Description("True unless said otherwise.")] bool? Active);

public sealed record TemplateRequest(
    [property: Required, TimeOfDay, Description("The first slot's start each day.")] string? FirstStart,
    [property: Required, TimeOfDay, Description("The last slot's start each day, not before firstStart.")] string? LastStart,
    [property: Required, Range(5, 720)] int? IntervalMinutes,
    [property: Required, Range(5, 720)] int? LengthMinutes);

public sealed record GenerateSlotsRequest(
    [property: MaxLength(1000), Description("Positive place ids; left out or empty: every active place.")] int[]? PlaceIds,
    [property: Required, Day, Description("The first day; not in the past.")] string? From,
    [property: Required, Day, Description("The last day, at most 365 days after from.")] string? To,
    [property: Description("The daily template; left out: each place's stored template of the service.")] TemplateRequest? Template,
    [property: Range(1, 10_000), Description("Seats per slot; left out: each place's stored seats of the service.")] int? Capacity,
    [property: Description("Count without writing.")] bool? DryRun,
    [property: StringLength(32, MinimumLength = 1), RegularExpression(ServiceDto.CodePattern),
        Description("The service the slots are for; default when left out.")] string? Service = null);

public sealed record DemoDataBody(
    [property: Range(1, 500), Description("Places to create; 10 when left out.")] int? Places,
    [property: Range(1, 60), Description("Days of slots from today; 14 when left out.")] int? Days,
    [property: Range(1, 100), Description("Seats per slot; 4 when left out.")] int? Capacity,
    [property: Description("The same seed makes the same data.")] int? Seed);

public sealed record GenerateSlotsDto(int Places, int SlotsCreated, int SlotsExisting, long SeatsCreated, bool DryRun);

public sealed record DemoDataDto(int PlacesCreated, int SlotsCreated, long SeatsCreated);

public sealed record DayStatsDto([property: Day] string Day, int Slots, long Seats, long FreeSeats, long Reservations, long CheckedIn, long NoShows);

public sealed record StatsDto(
    [property: Day] string From,
    [property: Day] string To,
    [property: NullWhenNone, Description("The service counted, by its code; null when every service is.")] string? Service,
    IReadOnlyList<DayStatsDto> Days);

public sealed record JobRunDto(string Job, DateTimeOffset LastRunAt, long DurationMs, long Rows, bool Ok, string Instance);

/// <summary>Flush lag: age in seconds of the oldest hot change not yet on disk (0 when none waits).</summary>
public sealed record JobsDto(double FlushLagSeconds, DateTimeOffset? OldestPendingChangeAt, IReadOnlyList<JobRunDto> Jobs);
