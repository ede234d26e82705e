using System.Globalization;
using System.Security.Claims;

namespace Slots.Api.Staff;

/// <summary>The roles staff hold; each includes what the one before it may do.</summary>
internal static class StaffRoles
{
    /// <summary>The roster and check-in, at the places named in the token.</summary>
    public const string SiteStaff = "site-staff";

    /// <summary>Also cancels blocks and exports, at its places.</summary>
    public const string SiteManager = "site-manager";

    /// <summary>Everything, everywhere (an admin API key counts as one).</summary>
    public const string Admin = "admin";

    public static readonly string[] All = [SiteStaff, SiteManager, Admin];

    public static int Rank(string role) => Array.IndexOf(All, role);
}

/// <summary>
/// Who is signed in, read from the token's claims: the subject, the roles (claim <c>role</c>, one
/// value each or a JSON array) and the places (claim <c>places</c>: ids, one per value or separated
/// by spaces or commas). Nothing else of the token is trusted.
/// </summary>
internal sealed record StaffMember(string Subject, IReadOnlySet<string> Roles, IReadOnlySet<int> Places)
{
    public const string PlacesClaim = "places";
    public const string RoleClaim = "role";

    public static StaffMember Of(ClaimsPrincipal user)
    {
        var subject = user.FindFirst("sub")?.Value ?? user.Identity?.Name ?? "unknown";
        var roles = user.Claims.Where(c => c.Type is RoleClaim or ClaimTypes.Role).Select(c => c.Value).ToHashSet(StringComparer.Ordinal);
        var places = user.Claims.Where(c => c.Type == PlacesClaim)
            .SelectMany(c => c.Value.Split([' ', ','], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            .Select(v => int.TryParse(v, NumberStyles.None, CultureInfo.InvariantCulture, out var id) ? id : 0)
            .Where(id => id > 0)
            .ToHashSet();
        return new StaffMember(subject, roles, places);
    }

    /// <summary>The highest staff role held, or null (a viewer key is no staff role).</summary>
    public string? Role => StaffRoles.All.LastOrDefault(Roles.Contains);

    /// <summary>Whether this member may act as <paramref name="role"/> at <paramref name="placeId"/>.</summary>
    public bool MayAt(int placeId, string role) =>
        Role is { } held && StaffRoles.Rank(held) >= StaffRoles.Rank(role) && (held == StaffRoles.Admin || Places.Contains(placeId));
}
