using System.Text.Json.Serialization;
using Slots.Reservations;

namespace Slots.Sms;

/// <summary>The site cancelled the block the booking was in: the SMS with the site's reason and a link to book again at the place.</summary>
public sealed record SiteCancelled(long Id, string Code, string Phone, string Language, string Place, DateOnly Date, TimeOnly Time, int PlaceId, string Reason)
    : SmsEvent(Id, Code, Phone, Language, Place, Date, Time)
{
    [JsonIgnore]
    public override ChangeKind Kind => ChangeKind.SiteCancelled;
}
