namespace Slots.Api.Contracts;

// Requests take strings for days and times so a bad value is answered with the field's name
// and what is expected, instead of a JSON conversion error.

public sealed record ReserveRequest(int? PlaceId, string? Day, string? Time, string? Name, string? Phone, string? NationalId, string? Language);

public sealed record RescheduleRequest(int? PlaceId, string? Day, string? Time);

public sealed record CreatePlaceRequest(string? Name, string? Address, string? Region, string? TimeZone, bool? Active);

public sealed record TemplateRequest(string? FirstStart, string? LastStart, int? IntervalMinutes, int? LengthMinutes);

public sealed record GenerateSlotsRequest(int[]? PlaceIds, string? From, string? To, TemplateRequest? Template, int? Capacity, bool? DryRun);

public sealed record DemoDataBody(int? Places, int? Days, int? Capacity, int? Seed);

public sealed record PlaceDto(int Id, string Name, string Address, string Region, string TimeZone, bool Active);

public sealed record PageDto<T>(IReadOnlyList<T> Items, int Page, int PageSize, int Total);

public sealed record SlotDto(string Time, int Minutes, int Capacity, int Free);

public sealed record DayDto(string Day, IReadOnlyList<SlotDto> Slots);

public sealed record AvailabilityDto(int PlaceId, string TimeZone, string From, string To, IReadOnlyList<DayDto> Days);

/// <summary>
/// A reservation, the same in every answer about one (201 of a booking, 200 of a lookup and of a
/// reschedule): its code, the place, the slot's day, start and length in minutes, and the name it is under.
/// </summary>
public sealed record ReservationDto(string Code, int PlaceId, string PlaceName, string Address, string Day, string Time, int Minutes, string Name);

public sealed record AlternativeDto(int PlaceId, string Day, string Time, int Free);

public sealed record GenerateSlotsDto(int Places, int SlotsCreated, int SlotsExisting, long SeatsCreated, bool DryRun);

public sealed record DemoDataDto(int PlacesCreated, int SlotsCreated, long SeatsCreated);

public sealed record DayStatsDto(string Day, int Slots, long Seats, long FreeSeats, long Reservations);

public sealed record StatsDto(string From, string To, IReadOnlyList<DayStatsDto> Days);

public sealed record JobRunDto(string Job, DateTimeOffset LastRunAt, long DurationMs, long Rows, bool Ok, string Instance);

/// <summary>Flush lag: age in seconds of the oldest hot change not yet on disk (0 when none waits).</summary>
public sealed record JobsDto(double FlushLagSeconds, DateTimeOffset? OldestPendingChangeAt, IReadOnlyList<JobRunDto> Jobs);
