using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using System.Text.Json.Serialization;

namespace Slots.Api.Reservations;

// Requests take strings for days and times, and nullable members, so a bad or missing value is
// answered with the field's name and what is expected instead of a JSON conversion error. The
// attributes are what the OpenAPI document states; ReservationRequests enforces the same.

/// <summary>A booking: the slot (place, day, start) and the person it is for.</summary>
public sealed record ReserveRequest(
    [property: Required, Range(1, int.MaxValue), Description("The place's id.")] int? PlaceId,
    [property: Required, Day, Description("The slot's day, in the place's time zone.")] string? Day,
    [property: Required, TimeOfDay, Description("The slot's start, in the place's time zone.")] string? Time,
    [property: Required, StringLength(100, MinimumLength = 1), RegularExpression(Patterns.Text), Description("The name the reservation is under.")] string? Name,
    [property: Required, StringLength(32, MinimumLength = 1), PhoneInput, Description("The phone number for the SMS: +421 905 123 456 or 0905 123 456.")] string? Phone,
    [property: Required, StringLength(40, MinimumLength = 1), RegularExpression(Patterns.NationalId), Description("The person's national id; only its keyed hash is stored.")] string? NationalId,
    [property: AllowedValues("sk", "en"), Description("The SMS language; sk when left out.")] string? Language,
    [property: StringLength(32, MinimumLength = 1), RegularExpression(Places.ServiceDto.CodePattern),
        Description("The service to book (GET /api/places/{id} lists the place's); left out at a place with one service, that one.")]
    string? Service = null,
    [property: StringLength(40, MinimumLength = 12), RegularExpression(Patterns.InvitationCode),
        Description("An invitation code, XXXX-XXXX-XXXX (any case; dashes and spaces are ignored), where the service takes invitations. The booking that it makes eligible spends it, and binds it to the person.")]
    string? Invitation = null,
    [property: Day, Description("A two-dose service: the second dose's day, within the service's interval after the first (with secondTime). Left out: the earliest free seat in the interval at the first dose's time.")]
    string? SecondDay = null,
    [property: TimeOfDay, Description("A two-dose service: the second dose's start on secondDay.")]
    string? SecondTime = null);

/// <summary>Where a reservation moves: a slot at the same or another place.</summary>
public sealed record RescheduleRequest(
    [property: Required, Range(1, int.MaxValue), Description("The new slot's place: the same place or another.")] int? PlaceId,
    [property: Required, Day, Description("The new slot's day.")] string? Day,
    [property: Required, TimeOfDay, Description("The new slot's start.")] string? Time,
    [property: Range(1, 2), Description("Which appointment moves: 1 (left out) the booking, 2 the second dose of a two-dose booking (the same place, a day within the service's interval after the first dose).")]
    int? Dose = null);

/// <summary>
/// A reservation, the same in every answer about one (201 of a booking, 200 of a lookup and of a
/// reschedule): its code, the place, the slot's day, start and length in minutes, the name it is
/// under, its state (a cancelled one is answered 410 reservation-cancelled, to its owner only) and
/// the service booked.
/// </summary>
public sealed record ReservationDto(
    [property: Description("The confirmation code: with the phone or national id, it finds, moves and cancels the reservation.")] string Code,
    int PlaceId,
    string PlaceName,
    string Address,
    [property: Day] string Day,
    [property: TimeOfDay] string Time,
    int Minutes,
    string Name,
    [property: AllowedValues(ReservationDto.Booked), Description("booked: the seat is held.")] string State,
    [property: RegularExpression(Places.ServiceDto.CodePattern), Description("The service's code, as GET /api/services lists it.")] string Service,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull),
        Description("A two-dose booking's second appointment, at the same place; absent for one appointment.")] SecondDoseDto? SecondDose = null)
{
    public const string Booked = "booked";
}

/// <summary>A free slot offered instead of a full one.</summary>
public sealed record AlternativeDto(int PlaceId, [property: Day] string Day, [property: TimeOfDay] string Time, int Free);

/// <summary>The second appointment of a two-dose booking: its day, start and length, at the booking's place.</summary>
public sealed record SecondDoseDto([property: Day] string Day, [property: TimeOfDay] string Time, int Minutes);
