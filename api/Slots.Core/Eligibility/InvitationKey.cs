using System.Text;
using Microsoft.Extensions.Options;

namespace Slots.Eligibility;

public sealed class InvitationOptions
{
    public const string Section = "Slots:Invitations";

    /// <summary>
    /// The HMAC key of invitation codes: at least 16 characters, or empty when the campaign issues
    /// none. A new key makes every unspent code unknown, so change it only between campaigns.
    /// </summary>
    public string HmacSecret { get; set; } = "";

    /// <summary>The most codes one batch may hold.</summary>
    public int MaxBatchSize { get; set; } = 100_000;
}

/// <summary>
/// The campaign's invitation key: the only way from a code a person types to the hash stored for
/// it. Without a key no code is issued and none a booking brings is valid.
/// </summary>
public sealed class InvitationKey
{
    private readonly byte[]? _key;

    public InvitationKey(IOptions<InvitationOptions> options)
    {
        var secret = options.Value.HmacSecret;
        if (string.IsNullOrEmpty(secret))
        {
            return;
        }
        if (secret.Length < 16)
        {
            throw new InvalidOperationException(
                $"Configuration '{InvitationOptions.Section}:HmacSecret' must hold a secret of at least 16 characters, or nothing when no invitations are issued.");
        }
        _key = Encoding.UTF8.GetBytes(secret);
    }

    /// <summary>Whether codes can be issued and checked.</summary>
    public bool Configured => _key is not null;

    /// <summary>The stored hash of a normalized code; null when no key is configured (then no code is valid).</summary>
    public string? Hash(string normalized) => _key is null ? null : InvitationCode.Hash(_key, normalized);
}
