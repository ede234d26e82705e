using System.Globalization;
using System.Text.Json.Serialization;
using Slots.Reservations;

namespace Slots.Sms;

/// <summary>
/// A seat held for someone on the waiting list: the SMS with how long it is held and the link to
/// claim it. <see cref="SmsEvent.Code"/> is the hold's code; the token is the entry's secret, carried
/// in the link's fragment (the browser never sends it in a URL).
/// </summary>
public sealed record SeatOffered(long Id, string Code, string Phone, string Language, string Place, DateOnly Date, TimeOnly Time, int HoldMinutes, string Token)
    : SmsEvent(Id, Code, Phone, Language, Place, Date, Time)
{
    [JsonIgnore]
    public override ChangeKind Kind => ChangeKind.SeatOffered;

    /// <summary>The outbox note of an offer: the hold's minutes, a space, the entry's token.</summary>
    public static string Note(int holdMinutes, string token) => string.Create(CultureInfo.InvariantCulture, $"{holdMinutes} {token}");

    public static SeatOffered FromNote(long id, string code, string phone, string language, string place, DateOnly date, TimeOnly time, string? note)
    {
        var parts = (note ?? "").Split(' ', 2);
        var minutes = int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var m) ? m : 0;
        return new SeatOffered(id, code, phone, language, place, date, time, minutes, parts.Length > 1 ? parts[1] : "");
    }
}
