using System.Text.Json.Serialization;
using Slots.Reservations;

namespace Slots.Sms;

/// <summary>
/// What a queue message carries: what the text needs and no more. The phone is there because
/// the SMS goes to it; no name, no national id. Day and time are the place's local ones.
/// </summary>
[JsonPolymorphic(TypeDiscriminatorPropertyName = "kind")]
[JsonDerivedType(typeof(SlotReserved), "reserved")]
[JsonDerivedType(typeof(ReservationCancelled), "cancelled")]
[JsonDerivedType(typeof(ReservationRescheduled), "rescheduled")]
[JsonDerivedType(typeof(SiteCancelled), "site-cancelled")]
[JsonDerivedType(typeof(ReservationReminder), "reminder")]
[JsonDerivedType(typeof(SeatOffered), "seat-offered")]
public abstract record SmsEvent(long Id, string Code, string Phone, string Language, string Place, DateOnly Date, TimeOnly Time)
{
    [JsonIgnore]
    public abstract ChangeKind Kind { get; }

    /// <summary>
    /// The message of an outbox row; <paramref name="note"/> is the row's note (a site's reason for its
    /// cancel), <paramref name="second"/> a pair's second dose (its confirmation names both).
    /// </summary>
    public static SmsEvent From(ChangeKind kind, long id, string code, string phone, string language, string place, DateOnly date, TimeOnly time,
        int placeId = 0, string? note = null, (DateOnly Day, TimeOnly Time)? second = null) =>
        kind switch
        {
            ChangeKind.Reserved => new SlotReserved(id, code, phone, language, place, date, time, second?.Day, second?.Time),
            ChangeKind.Cancelled => new ReservationCancelled(id, code, phone, language, place, date, time),
            ChangeKind.Rescheduled => new ReservationRescheduled(id, code, phone, language, place, date, time),
            ChangeKind.SiteCancelled => new SiteCancelled(id, code, phone, language, place, date, time, placeId, note ?? ""),
            ChangeKind.Reminder => new ReservationReminder(id, code, phone, language, place, date, time),
            ChangeKind.SeatOffered => SeatOffered.FromNote(id, code, phone, language, place, date, time, note),
            _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "Unknown change kind in the outbox"),
        };
}
