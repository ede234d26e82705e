namespace Slots.Api.Finders;

/// <summary>Availability published for vaccine finders (SMART Scheduling Links), <c>Slots:Finders</c>.</summary>
public sealed class FinderOptions
{
    public const string Section = "Slots:Finders";

    /// <summary>
    /// How old a publication may get before the next request starts a new one. The spec asks finders to poll at most once a
    /// minute, so a minute lets a whole crowd of finders share each publication.
    /// </summary>
    public int RefreshSeconds { get; set; } = 60;

    /// <summary>How many days, from today in each place's time zone, are published.</summary>
    public int Days { get; set; } = 30;

    /// <summary>
    /// Where the booking page lives for people: each Slot's booking deep link starts with it. Configured, never taken
    /// from a request, because the files are shared by everyone and a forged Host header must not end up in them.
    /// </summary>
    public string PublicUrl { get; set; } = "http://127.0.0.1:5080/";

    /// <summary>A phone number people can call to book, published on every Slot as booking-phone when set.</summary>
    public string? BookingPhone { get; set; }

    /// <summary>The service every place offers today: the Schedule's serviceType coding.</summary>
    public string ServiceSystem { get; set; } = "http://terminology.hl7.org/CodeSystem/service-type";

    public string ServiceCode { get; set; } = "57";

    public string ServiceDisplay { get; set; } = "Immunization";

    /// <summary>How many places are read from the database at once while publishing.</summary>
    public int Parallelism { get; set; } = 4;

    /// <summary>
    /// When a region's Slot lines that changed since its base file outgrow this share of the base, the next publication
    /// writes a new base (every line, copied); until then it writes only the changed lines and names the base's others where
    /// they lie. 0: a new base every publication.
    /// </summary>
    public double CompactShare { get; set; } = 0.25;

    /// <summary>Where the NDJSON files are written; empty: a folder of this process under the system's temporary folder.</summary>
    public string? Folder { get; set; }

    internal static bool HasValidUrl(FinderOptions o) =>
        Uri.TryCreate(o.PublicUrl, UriKind.Absolute, out var url) && (url.Scheme == Uri.UriSchemeHttps || url.Scheme == Uri.UriSchemeHttp)
        && string.IsNullOrEmpty(url.Query) && string.IsNullOrEmpty(url.Fragment);
}
