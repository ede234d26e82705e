using System.Globalization;
using System.Text;

namespace Slots.Api.Finders;

/// <summary>File names for regions: ASCII, lower case, hyphens ("Bratislavský kraj" → bratislavsky-kraj), unique.</summary>
internal static class Regions
{
    public static Dictionary<string, string> Slugs(IEnumerable<string> regions)
    {
        var slugs = new Dictionary<string, string>(StringComparer.Ordinal);
        var taken = new HashSet<string>(StringComparer.Ordinal);
        foreach (var region in regions.Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal))
        {
            var slug = Slug(region);
            var unique = slug;
            for (var n = 2; !taken.Add(unique); n++)
            {
                unique = $"{slug}-{n}"; // two regions that fold to the same letters
            }
            slugs[region] = unique;
        }
        return slugs;
    }

    private static string Slug(string region)
    {
        var text = new StringBuilder();
        foreach (var c in region.Normalize(NormalizationForm.FormD))
        {
            if (char.IsAsciiLetterOrDigit(c))
            {
                text.Append(char.ToLowerInvariant(c));
            }
            else if (CharUnicodeInfo.GetUnicodeCategory(c) != UnicodeCategory.NonSpacingMark && text.Length > 0 && text[^1] != '-')
            {
                text.Append('-');
            }
        }
        var slug = text.ToString().Trim('-');
        return slug.Length == 0 ? "region" : slug[..Math.Min(slug.Length, 60)];
    }
}
