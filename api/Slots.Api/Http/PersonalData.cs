namespace Slots.Api.Http;

/// <summary>Marks endpoints whose answers carry personal data; WebSecurity sends them with Cache-Control: no-store.</summary>
internal sealed class PersonalDataMetadata
{
    public static readonly PersonalDataMetadata Instance = new();
}

internal static class PersonalDataAnswers
{
    /// <summary>
    /// Answers of these endpoints carry personal data (names, phones, who came): no browser, proxy or
    /// CDN may keep a copy, so a shared computer's back button or a cache shows nothing.
    /// </summary>
    public static TBuilder PersonalData<TBuilder>(this TBuilder builder)
        where TBuilder : IEndpointConventionBuilder => builder.WithMetadata(PersonalDataMetadata.Instance);
}
