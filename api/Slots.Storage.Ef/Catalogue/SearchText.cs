namespace Slots.Storage.Ef;

/// <summary>
/// The lower-casing the name search compares with. The databases' own lower() cannot be trusted
/// with it: SQLite's folds only ASCII, and PostgreSQL's follows the database's LC_CTYPE (under C,
/// ASCII only too), so "Čakáreň" stayed "Čakáreň" while the person's text arrived lower-cased by
/// .NET as "čakáreň". Each EF backend provides <see cref="LowerFunction"/> with Unicode rules:
/// SQLite on every connection EF opens (this method), PostgreSQL as a SQL function (its schema).
/// </summary>
public static class SearchText
{
    /// <summary>The SQL name of <see cref="Lower"/>, mapped in <see cref="SlotsDbContext"/>.</summary>
    public const string LowerFunction = "slots_lower";

    /// <summary>The text lower-cased as <see cref="Slots.Places.PlaceQuery.NamePattern"/> lower-cases the person's.</summary>
    public static string Lower(string text) => text.ToLowerInvariant();
}
