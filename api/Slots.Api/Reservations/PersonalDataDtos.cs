using System.ComponentModel;
using System.ComponentModel.DataAnnotations;

namespace Slots.Api.Reservations;

/// <summary>Everything kept about the person a booking code and its proof identify, table by table.</summary>
public sealed record PersonalDataDto(
    [property: Description("Bookings made with the person's national id, active or cancelled.")] StoredBookingDto[] Bookings,
    [property: Description("Waiting-list entries made with the person's national id.")] StoredEntryDto[] WaitingList,
    [property: Description("SMS to the person's bookings and entries, queued or handed on for sending, with their texts.")] StoredSmsDto[] Sms,
    [property: Description("Day-before reminders recorded for the person's bookings.")] StoredReminderDto[] Reminders);

/// <summary>A booking as kept: what names the person and the slot it was for.</summary>
public sealed record StoredBookingDto(
    string Code,
    int PlaceId,
    string PlaceName,
    [property: Day] string Day,
    [property: TimeOfDay] string Time,
    string Name,
    string Phone,
    [property: Description("The SMS language.")] string Language,
    [property: AllowedValues(StoredBookingDto.Booked, StoredBookingDto.Cancelled)] string State,
    DateTimeOffset BookedAt,
    [property: Description("1 or 2 for an appointment of a two-dose pair (both listed under the pair's code), null for a single booking.")]
    int? Dose = null)
{
    public const string Booked = "booked";
    public const string Cancelled = "cancelled";
}

/// <summary>A waiting-list entry as kept.</summary>
public sealed record StoredEntryDto(
    int PlaceId,
    string PlaceName,
    [property: Day] string From,
    [property: Day] string To,
    string Name,
    string Phone,
    string Language,
    [property: AllowedValues("waiting", "offered", "booked", "left", "expired")] string State,
    DateTimeOffset JoinedAt);

/// <summary>One SMS: to whom, its text, whether it is still queued, when it was queued and, where known, when it went on for sending.</summary>
public sealed record StoredSmsDto(
    string Code,
    string Phone,
    string Text,
    [property: AllowedValues(StoredSmsDto.Queued, StoredSmsDto.Sent)] string State,
    DateTimeOffset QueuedAt,
    DateTimeOffset? SentAt)
{
    public const string Queued = "queued";
    public const string Sent = "sent";
}

/// <summary>A reminder recorded for a booking: no text of its own beyond its SMS.</summary>
public sealed record StoredReminderDto(string Code, [property: Day] string Day, DateTimeOffset QueuedAt);
