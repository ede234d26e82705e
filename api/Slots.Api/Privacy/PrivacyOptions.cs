namespace Slots.Api.Privacy;

/// <summary>
/// <c>Slots:Privacy</c>: who answers people's questions about their personal data. The SPA's privacy
/// page names them beside the retention period, both read from the API so the page never states
/// what the server does not do.
/// </summary>
public sealed class PrivacyOptions
{
    public const string Section = "Slots:Privacy";

    /// <summary>The organisation responsible for the data (the controller), as people know it.</summary>
    public string? Controller { get; set; }

    /// <summary>Where people write about their data (the data protection officer's e-mail address).</summary>
    public string? ContactEmail { get; set; }

    internal static bool HasValidEmail(PrivacyOptions o) =>
        string.IsNullOrEmpty(o.ContactEmail)
        || (o.ContactEmail.Length <= 254 && o.ContactEmail.IndexOf('@', StringComparison.Ordinal) is > 0 and var at
            && at < o.ContactEmail.Length - 1 && !o.ContactEmail.Any(char.IsWhiteSpace));
}
