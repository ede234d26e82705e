using System.Globalization;
using System.Text.RegularExpressions;
using Slots.Reservations;
using Slots.Storage;

namespace Slots.Sms;

/// <summary>
/// The SMS texts, one per kind and language. Placeholders: {place}, {date}, {time}, {code}.
/// Short on purpose: a text past 160 GSM characters costs two messages; diacritics are left out
/// of the Slovak texts for the same reason (they switch the SMS to UCS-2, 70 characters).
/// </summary>
public static partial class SmsTemplates
{
    public const string DefaultLanguage = "sk";

    private static readonly Dictionary<(string Language, ChangeKind Kind), string> Texts = new()
    {
        [("sk", ChangeKind.Reserved)] = "Rezervacia potvrdena: {place}, {date} o {time}. Kod: {code}",
        [("sk", ChangeKind.Cancelled)] = "Rezervacia {code} ({place}, {date} o {time}) bola zrusena.",
        [("sk", ChangeKind.Rescheduled)] = "Rezervacia {code} presunuta: {place}, {date} o {time}.",
        [("en", ChangeKind.Reserved)] = "Booking confirmed: {place}, {date} at {time}. Code: {code}",
        [("en", ChangeKind.Cancelled)] = "Booking {code} ({place}, {date} at {time}) has been cancelled.",
        [("en", ChangeKind.Rescheduled)] = "Booking {code} moved: {place}, {date} at {time}.",
    };

    public static IEnumerable<string> Languages => Texts.Keys.Select(k => k.Language).Distinct();

    /// <summary>The text for the event in its language (Slovak when the language has no texts).</summary>
    public static string Render(SmsEvent e)
    {
        var language = Texts.ContainsKey((e.Language, e.Kind)) ? e.Language : DefaultLanguage;
        var date = language == "en"
            ? e.Date.ToString("d MMM yyyy", CultureInfo.InvariantCulture)
            : e.Date.ToString("d.M.yyyy", CultureInfo.InvariantCulture);
        var time = e.Time.ToString("HH:mm", CultureInfo.InvariantCulture);
        // One pass: a place name that happens to contain "{code}" stays as it is.
        return Placeholder().Replace(Texts[(language, e.Kind)], m => m.Groups[1].Value switch
        {
            "place" => e.Place,
            "date" => date,
            "time" => time,
            _ => e.Code,
        });
    }

    [GeneratedRegex(@"\{(place|date|time|code)\}")]
    private static partial Regex Placeholder();
}
