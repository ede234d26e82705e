using System.Text.Json.Serialization;
using Slots.Reservations;

namespace Slots.Sms;

/// <summary>The day before: the reminder SMS with a link to the manage page (the code filled in, proof still asked).</summary>
public sealed record ReservationReminder(long Id, string Code, string Phone, string Language, string Place, DateOnly Date, TimeOnly Time)
    : SmsEvent(Id, Code, Phone, Language, Place, Date, Time)
{
    [JsonIgnore]
    public override ChangeKind Kind => ChangeKind.Reminder;
}
