using System.Text.Json.Serialization;
using Slots.Reservations;

namespace Slots.Sms;

/// <summary>A seat was taken: the confirmation SMS.</summary>
public sealed record SlotReserved(long Id, string Code, string Phone, string Language, string Place, DateOnly Date, TimeOnly Time)
    : SmsEvent(Id, Code, Phone, Language, Place, Date, Time)
{
    [JsonIgnore]
    public override ChangeKind Kind => ChangeKind.Reserved;
}
