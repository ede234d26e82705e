using System.ComponentModel;
using System.ComponentModel.DataAnnotations;

namespace Slots.Api.Admin;

public sealed record CreateMachineKeyRequest(
    [property: Required, StringLength(100, MinimumLength = 1), RegularExpression(Patterns.Text),
        Description("What the key is for, e.g. ci-2026-11; shown in the list and the audit trail.")] string? Name,
    [property: Required, AllowedValues("admin", "viewer"), Description("admin (everything) or viewer (statistics, jobs and /metrics).")] string? Role,
    [property: Required, Description("When the key stops working (ISO 8601 with an offset): in the future, at most 366 days from now.")] DateTimeOffset? ExpiresAt);

/// <summary>A machine key as the list shows it: never the key, nor its hash.</summary>
public sealed record MachineKeyDto(
    long Id,
    string Name,
    [property: AllowedValues("admin", "viewer")] string Role,
    [property: AllowedValues("active", "expired", "revoked")] string State,
    DateTimeOffset CreatedAt,
    [property: Description("Who made it: a token's subject or a machine key's name.")] string CreatedBy,
    DateTimeOffset ExpiresAt,
    DateTimeOffset? RevokedAt,
    string? RevokedBy);

/// <summary>A key just made: the only answer that carries the key itself.</summary>
public sealed record CreatedMachineKeyDto(
    long Id,
    string Name,
    [property: AllowedValues("admin", "viewer")] string Role,
    DateTimeOffset CreatedAt,
    string CreatedBy,
    DateTimeOffset ExpiresAt,
    [property: Description("The key, for the X-Api-Key header. Shown this once: only its SHA-256 is kept.")] string Key);
