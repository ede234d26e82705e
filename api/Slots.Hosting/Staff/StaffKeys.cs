using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace Slots.Hosting.Staff;

public sealed class AdminKey
{
    public string Key { get; set; } = "";

    /// <summary>admin (everything) or viewer (statistics and metrics only).</summary>
    public string Role { get; set; } = "viewer";
}

public sealed class AdminOptions
{
    public const string Section = "Slots:Admin";

    /// <summary>Named API keys, e.g. Slots:Admin:Keys:ops:Key and Slots:Admin:Keys:ops:Role.</summary>
    public Dictionary<string, AdminKey> Keys { get; set; } = [];
}

/// <summary>
/// The staff keys both hosts accept in X-Api-Key (the API's admin endpoints, /metrics on either
/// host), checked in one place: compared as SHA-256 hashes in constant time, keys under 16
/// characters never match.
/// </summary>
public sealed class StaffKeys(IOptionsMonitor<AdminOptions> options)
{
    public const string Header = "X-Api-Key";

    /// <summary>The key's name and role, or null when <paramref name="presented"/> is no staff key.</summary>
    public (string Name, string Role)? Find(string? presented)
    {
        if (string.IsNullOrEmpty(presented))
        {
            return null;
        }
        var presentedHash = SHA256.HashData(Encoding.UTF8.GetBytes(presented));
        foreach (var (name, key) in options.CurrentValue.Keys)
        {
            if (key.Key.Length >= 16 &&
                CryptographicOperations.FixedTimeEquals(presentedHash, SHA256.HashData(Encoding.UTF8.GetBytes(key.Key))))
            {
                return (name, key.Role);
            }
        }
        return null;
    }
}

public static class StaffKeysRegistration
{
    /// <summary>The staff keys from Slots:Admin:Keys; safe to call from several registrations.</summary>
    public static IHostApplicationBuilder AddStaffKeys(this IHostApplicationBuilder builder)
    {
        if (!builder.Services.Any(d => d.ServiceType == typeof(StaffKeys)))
        {
            builder.Services.AddOptions<AdminOptions>().BindConfiguration(AdminOptions.Section);
            builder.Services.AddSingleton<StaffKeys>();
        }
        return builder;
    }
}
