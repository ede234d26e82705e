using System.Net.Security;
using System.Security.Cryptography.X509Certificates;

namespace Slots.LoadTest.Simulation;

/// <summary>
/// The stack's HAProxy speaks HTTPS only, with a certificate of its local CA (scripts/tls.sh) unless a
/// real one is configured. SLOTS_TLS_CA names that CA's certificate file (./slots bench and
/// loadtest/chaos.sh set it to the stack's .../tls/ca.crt): the generator then trusts that CA and no other,
/// the name and dates still checked, as a browser that imported it would. Unset, the machine's roots decide.
/// </summary>
public static class StackCa
{
    public const string Variable = "SLOTS_TLS_CA";

    private static readonly X509Certificate2? Ca = Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } path
        ? X509Certificate2.CreateFromPem(File.ReadAllText(path))
        : null;

    public static SocketsHttpHandler TrustingStackCa(this SocketsHttpHandler handler) => Ca is null ? handler : handler.TrustingOnly(Ca);

    /// <summary>Trusts <paramref name="ca"/> and no other root, the name and dates still checked.</summary>
    public static SocketsHttpHandler TrustingOnly(this SocketsHttpHandler handler, X509Certificate2 ca)
    {
        handler.SslOptions = new SslClientAuthenticationOptions
        {
            CertificateChainPolicy = new X509ChainPolicy
            {
                TrustMode = X509ChainTrustMode.CustomRootTrust,
                CustomTrustStore = { ca },
                // The local CA's revocation list is served by the HAProxy under load; a benchmark measures the stack, not CRL fetches.
                RevocationMode = X509RevocationMode.NoCheck,
            },
        };
        return handler;
    }
}
