using System.Text.Json.Serialization;
using Slots.Reservations;

namespace Slots.Sms;

/// <summary>A reservation moved to another slot: the SMS with its new time.</summary>
public sealed record ReservationRescheduled(long Id, string Code, string Phone, string Language, string Place, DateOnly Date, TimeOnly Time)
    : SmsEvent(Id, Code, Phone, Language, Place, Date, Time)
{
    [JsonIgnore]
    public override ChangeKind Kind => ChangeKind.Rescheduled;
}
