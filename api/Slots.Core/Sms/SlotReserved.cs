using System.Text.Json.Serialization;
using Slots.Reservations;

namespace Slots.Sms;

/// <summary>A seat was taken: the confirmation SMS. A pair's names its second dose too (one message confirms both).</summary>
public sealed record SlotReserved(long Id, string Code, string Phone, string Language, string Place, DateOnly Date, TimeOnly Time,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] DateOnly? SecondDate = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] TimeOnly? SecondTime = null)
    : SmsEvent(Id, Code, Phone, Language, Place, Date, Time)
{
    [JsonIgnore]
    public override ChangeKind Kind => ChangeKind.Reserved;
}
