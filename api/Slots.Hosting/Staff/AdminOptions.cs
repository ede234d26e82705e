using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Slots.MachineKeys;

namespace Slots.Hosting.Staff;

/// <summary>
/// A configured machine key: the key itself (at least 16 characters; shorter ones never match) or,
/// better, only its SHA-256 in Hash (64 hex digits, e.g. `printf %s "$KEY" | sha256sum`), so the
/// configuration holds nothing that opens the API.
/// </summary>
public sealed class AdminKey
{
    public string Key { get; set; } = "";

    /// <summary>The key's SHA-256 as hex, instead of <see cref="Key"/>.</summary>
    public string Hash { get; set; } = "";

    /// <summary>admin (everything) or viewer (statistics and metrics only).</summary>
    public string Role { get; set; } = "viewer";

    /// <summary>What a presented key's hash must equal; null when this entry can match nothing.</summary>
    internal byte[]? HashBytes() =>
        MachineKeySecrets.IsHash(Hash) ? Convert.FromHexString(Hash)
        : Key.Length >= 16 ? Convert.FromHexString(MachineKeySecrets.Hash(Key))
        : null;
}

public sealed class AdminOptions
{
    public const string Section = "Slots:Admin";

    /// <summary>Named keys, e.g. Slots:Admin:Keys:ops:Key (or :Hash) and Slots:Admin:Keys:ops:Role.</summary>
    public Dictionary<string, AdminKey> Keys { get; set; } = [];

    /// <summary>How long the working keys of the database are held before they are read again: the bound on a revoke elsewhere.</summary>
    public TimeSpan KeyRefresh { get; set; } = TimeSpan.FromSeconds(5);

    public IEnumerable<string> Errors()
    {
        if (KeyRefresh < TimeSpan.Zero || KeyRefresh > TimeSpan.FromMinutes(1))
        {
            yield return $"{Section}:KeyRefresh must be between 0 and 00:01:00";
        }
        foreach (var (name, key) in Keys)
        {
            if (key.Hash.Length > 0 && !MachineKeySecrets.IsHash(key.Hash))
            {
                yield return $"{Section}:Keys:{name}:Hash must be a SHA-256 in hex (64 digits)";
            }
            if (key.Hash.Length > 0 && key.Key.Length > 0)
            {
                yield return $"{Section}:Keys:{name} names both Key and Hash; keep only Hash";
            }
        }
    }
}

public static class StaffKeysRegistration
{
    /// <summary>The machine keys, configured and stored; safe to call from several registrations.</summary>
    public static IHostApplicationBuilder AddStaffKeys(this IHostApplicationBuilder builder)
    {
        if (!builder.Services.Any(d => d.ServiceType == typeof(StaffKeys)))
        {
            builder.Services.AddOptions<AdminOptions>().BindConfiguration(AdminOptions.Section)
                .Validate(o => !o.Errors().Any(), "Slots:Admin: a Hash must be 64 hex digits, given alone; KeyRefresh 0..00:01:00")
                .ValidateOnStart();
            builder.Services.AddSingleton<StaffKeys>();
        }
        return builder;
    }
}
