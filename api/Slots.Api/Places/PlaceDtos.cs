using System.ComponentModel;

namespace Slots.Api.Places;

public sealed record PlaceDto(int Id, string Name, string Address, string Region,
    [property: Description("The IANA time zone its days and times are in, e.g. Europe/Bratislava.")] string TimeZone, bool Active,
    [property: Description("Opening hours as the place states them; left out when not given.")] string? OpeningHours = null,
    [property: Description("True while an admin has closed the place to new bookings: its availability offers nothing and a booking gets place-closed.")] bool Closed = false);

public sealed record SlotDto([property: TimeOfDay] string Time, int Minutes, int Capacity, int Free);

public sealed record DayDto([property: Day] string Day, IReadOnlyList<SlotDto> Slots);

public sealed record AvailabilityDto(int PlaceId, string TimeZone, [property: Day] string From, [property: Day] string To, IReadOnlyList<DayDto> Days);
