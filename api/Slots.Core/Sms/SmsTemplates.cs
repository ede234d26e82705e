using System.Globalization;
using System.Text.RegularExpressions;
using Slots.Reservations;
using Slots.Storage;

namespace Slots.Sms;

/// <summary>
/// The SMS texts, one per kind and language. Placeholders: {place}, {date}, {time}, {code}, a pair's
/// confirmation's {date2} and {time2} (its second dose), and
/// for a site's cancel {reason} and {link} (booking again at the place), for a reminder {link}
/// (the manage page with the code filled in), for a waiting list's offer {hold} (minutes) and
/// {link} (the claim page, the entry's token in the fragment).
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
        [("sk", ChangeKind.SiteCancelled)] = "{place} zrusilo termin {date} o {time} (kod {code}): {reason}. Novy termin: {link}",
        [("en", ChangeKind.SiteCancelled)] = "{place} cancelled {date} at {time} (code {code}): {reason}. Book again: {link}",
        [("sk", ChangeKind.Reminder)] = "Pripomienka: zajtra {date} o {time}, {place}. Kod {code}. Zrusit/presunut: {link}",
        [("en", ChangeKind.Reminder)] = "Reminder: tomorrow {date} at {time}, {place}. Code {code}. Cancel/move: {link}",
        [("sk", ChangeKind.SeatOffered)] = "Volne miesto pre vas: {place}, {date} o {time}. Drzime ho {hold} min, potvrdte tu: {link}",
        [("en", ChangeKind.SeatOffered)] = "A seat for you: {place}, {date} at {time}. Held {hold} min, claim it here: {link}",
    };

    // A pair's confirmation: both doses in one message.
    private static readonly Dictionary<string, string> PairTexts = new()
    {
        ["sk"] = "Rezervacia potvrdena: {place}, {date} o {time}, 2. davka {date2} o {time2}. Kod: {code}",
        ["en"] = "Booking confirmed: {place}, {date} at {time}, dose 2 {date2} at {time2}. Code: {code}",
    };

    public static IEnumerable<string> Languages => Texts.Keys.Select(k => k.Language).Distinct();

    /// <summary>
    /// The text for the event in its language (Slovak when the language has no texts). Links point
    /// at <paramref name="site"/>, the public address of the served page.
    /// </summary>
    public static string Render(SmsEvent e, Uri? site = null)
    {
        var language = Texts.ContainsKey((e.Language, e.Kind)) ? e.Language : DefaultLanguage;
        var pair = e is SlotReserved { SecondDate: not null, SecondTime: not null } reserved ? reserved : null;
        var text = pair is not null && PairTexts.TryGetValue(language, out var both) ? both : Texts[(language, e.Kind)];
        // One pass: a place name that happens to contain "{code}" stays as it is.
        return Placeholder().Replace(text, m => m.Groups[1].Value switch
        {
            "place" => e.Place,
            "date" => Date(e.Date, language),
            "time" => Time(e.Time),
            "date2" => Date(pair!.SecondDate!.Value, language),
            "time2" => Time(pair!.SecondTime!.Value),
            "reason" => e is SiteCancelled cancel ? cancel.Reason : "",
            "hold" => e is SeatOffered offer ? offer.HoldMinutes.ToString(CultureInfo.InvariantCulture) : "",
            "link" => Link(e, site ?? DefaultSite),
            _ => e.Code,
        });
    }

    private static string Date(DateOnly day, string language) => language == "en"
        ? day.ToString("d MMM yyyy", CultureInfo.InvariantCulture)
        : day.ToString("d.M.yyyy", CultureInfo.InvariantCulture);

    private static string Time(TimeOnly time) => time.ToString("HH:mm", CultureInfo.InvariantCulture);

    /// <summary>Where links point when no public address is configured: the development run's.</summary>
    public static readonly Uri DefaultSite = new("http://127.0.0.1:5080/");

    /// <summary>
    /// The page an SMS links to. Hash routes: the fragment never reaches a server or its logs, and
    /// the booking code in it is not enough to see or change anything (the page asks for proof).
    /// </summary>
    public static string Link(SmsEvent e, Uri site) => e switch
    {
        SiteCancelled cancel => new Uri(site, $"#/place/{cancel.PlaceId.ToString(CultureInfo.InvariantCulture)}").AbsoluteUri,
        SeatOffered offer => new Uri(site, $"#/waitlist/{offer.Token}").AbsoluteUri,
        _ => new Uri(site, $"#/manage/{e.Code}").AbsoluteUri,
    };

    [GeneratedRegex(@"\{(place|date2|time2|date|time|code|reason|hold|link)\}")]
    private static partial Regex Placeholder();
}
