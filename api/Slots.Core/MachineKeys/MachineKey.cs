namespace Slots.MachineKeys;

/// <summary>
/// A key a script presents in X-Api-Key, as stored: its SHA-256 (hex), never the key itself. A key
/// works from its creation until it expires or is revoked, whichever comes first; several can work
/// at once, so a script's key is rotated by creating the next one before revoking the last.
/// </summary>
public sealed record MachineKey(
    long Id,
    string Name,
    string Role,
    string Hash,
    DateTimeOffset CreatedAt,
    string CreatedBy,
    DateTimeOffset ExpiresAt,
    DateTimeOffset? RevokedAt,
    string? RevokedBy)
{
    public bool WorksAt(DateTimeOffset now) => RevokedAt is null && now < ExpiresAt;
}

/// <summary>A key to store: what an admin asked for, the hash of the secret made for it, and who asked.</summary>
public sealed record NewMachineKey(string Name, string Role, string Hash, DateTimeOffset CreatedAt, string CreatedBy, DateTimeOffset ExpiresAt);

/// <summary>What revoking a key did.</summary>
public enum RevokeOutcome
{
    Revoked,
    AlreadyRevoked,
    NotFound,
}

/// <summary>The roles a machine key can hold: everything, or statistics, jobs and /metrics only.</summary>
public static class MachineKeyRoles
{
    public const string Admin = "admin";
    public const string Viewer = "viewer";

    public static readonly string[] All = [Admin, Viewer];
}
