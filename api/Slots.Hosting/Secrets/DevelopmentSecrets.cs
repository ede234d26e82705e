using System.Data.Common;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;

namespace Slots.Hosting.Secrets;

/// <summary>
/// The secrets Slots reads, and the values they must not hold outside Development: the ones this
/// repository ships (appsettings.Development.json, the README's and docker-compose's examples,
/// `dotnet user-jwts` keys) and the usual placeholders. Anyone can read those, so a production
/// start with one is refused, naming the setting and never printing its value.
/// </summary>
public static class DevelopmentSecrets
{
    /// <summary>What `dotnet user-jwts` names as the issuer of the keys it makes (./slots staff token).</summary>
    public const string DevelopmentIssuer = "dotnet-user-jwts";

    private static readonly HashSet<string> Known = new(StringComparer.OrdinalIgnoreCase)
    {
        "development-only-secret-do-not-use-in-production",   // Slots:Persons:HmacSecret in appsettings.Development.json
        "development-only-waiting-room-key-do-not-use",       // the waiting room's Development key
        "development-only-invitation-key-do-not-use",         // Slots:Invitations:HmacSecret in appsettings.Development.json
        "dev-admin-key-0000", "dev-viewer-key-0000",          // the development staff keys
        "Your_str0ng_pass", "Str0ng!pass",                    // the README's and docker-compose's SQL Server examples
        "slots",                                              // docker-compose's default RabbitMQ password
        "guest",                                              // RabbitMQ's default user (allowed on loopback only, by RabbitMQ too)
        "password", "changeme",                              // the usual placeholders
    };

    /// <summary>The known values as a configured machine key's Hash would give them.</summary>
    private static readonly HashSet<string> KnownHashes =
        new(Known.Select(Slots.MachineKeys.MachineKeySecrets.Hash), StringComparer.OrdinalIgnoreCase);

    /// <summary>Throws, naming each offending key, when a start outside Development carries a development secret.</summary>
    public static void RefuseOutsideDevelopment(IConfiguration configuration, IHostEnvironment environment)
    {
        if (environment.IsDevelopment())
        {
            return;
        }
        var offending = Find(configuration).ToList();
        if (offending.Count > 0)
        {
            throw new InvalidOperationException(
                $"A development value is configured in the {environment.EnvironmentName} environment for: {string.Join(", ", offending)}. "
                + "Set each from an environment variable or a secret file (SLOTS_SECRETS_DIR, default /run/secrets) holding a value of its own.");
        }
    }

    /// <summary>The keys holding a development value (the signing keys section as a whole: "development key" of user-jwts).</summary>
    public static IEnumerable<string> Find(IConfiguration configuration)
    {
        foreach (var key in new[] { "Slots:Persons:HmacSecret", "Slots:Persons:PreviousHmacSecret", "Slots:Invitations:HmacSecret", "Slots:WaitingRoom:SigningKey", "Slots:Sms:Http:Password" })
        {
            if (IsKnown(configuration[key]))
            {
                yield return key;
            }
        }
        foreach (var machineKey in configuration.GetSection("Slots:Admin:Keys").GetChildren())
        {
            if (IsKnown(machineKey["Key"]))
            {
                yield return $"Slots:Admin:Keys:{machineKey.Key}:Key";
            }
            if (machineKey["Hash"] is { } hash && KnownHashes.Contains(hash.Trim()))
            {
                yield return $"Slots:Admin:Keys:{machineKey.Key}:Hash";
            }
        }
        if (IsKnown(DatabasePassword(configuration.GetConnectionString("Slots"))))
        {
            yield return "ConnectionStrings:Slots (its password)";
        }
        if (BrokerPasswords(configuration.GetConnectionString("RabbitMq")).Any(IsKnown))
        {
            yield return "ConnectionStrings:RabbitMq (its password)";
        }
        var signingKeys = configuration.GetSection("Authentication:Schemes:Bearer:SigningKeys").GetChildren();
        if (signingKeys.Any(k => string.Equals(k["Issuer"], DevelopmentIssuer, StringComparison.Ordinal)))
        {
            yield return $"Authentication:Schemes:Bearer:SigningKeys (a development key of {DevelopmentIssuer}: staff tokens must come from the site's OpenID provider)";
        }
    }

    private static bool IsKnown(string? value) => !string.IsNullOrEmpty(value) && Known.Contains(value.Trim());

    /// <summary>The Password (or Pwd) of an ADO.NET connection string; null when it names none or cannot be read.</summary>
    private static string? DatabasePassword(string? connectionString)
    {
        if (string.IsNullOrWhiteSpace(connectionString))
        {
            return null;
        }
        try
        {
            var parts = new DbConnectionStringBuilder { ConnectionString = connectionString };
            return parts.TryGetValue("Password", out var password) ? password?.ToString()
                : parts.TryGetValue("Pwd", out var pwd) ? pwd?.ToString()
                : null;
        }
        catch (ArgumentException)
        {
            return null; // not key=value pairs: the backend's own parser says what is wrong with it
        }
    }

    /// <summary>
    /// The passwords of the broker's amqp:// URIs (several, comma-separated). The guest user is
    /// allowed where the host is loopback: RabbitMQ itself admits guest only from there.
    /// </summary>
    private static IEnumerable<string> BrokerPasswords(string? uris)
    {
        foreach (var text in (uris ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            if (!Uri.TryCreate(text, UriKind.Absolute, out var uri) || uri.UserInfo.Split(':', 2) is not [var user, var password])
            {
                continue;
            }
            if (!(uri.IsLoopback && Uri.UnescapeDataString(user) == "guest"))
            {
                yield return Uri.UnescapeDataString(password);
            }
        }
    }
}
