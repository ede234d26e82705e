using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;

namespace Slots.Topology.Run;

/// <summary>The certificate a file holds and the one a listener serves, compared by serial number (what
/// scripts/tls.sh serial and served printed with openssl). Issuing stays in scripts/tls.sh, which compose's tls
/// container runs too.</summary>
public static class LocalCa
{
    /// <summary>The serial of the first certificate in a PEM file (the served chain's leaf), in hex.</summary>
    public static string Serial(string pemFile)
    {
        const string Begin = "-----BEGIN CERTIFICATE-----";
        const string End = "-----END CERTIFICATE-----";
        var text = File.ReadAllText(pemFile);
        var from = text.IndexOf(Begin, StringComparison.Ordinal);
        var to = text.IndexOf(End, StringComparison.Ordinal);
        if (from < 0 || to < from)
        {
            throw new InvalidOperationException($"{pemFile} holds no certificate");
        }

        using var certificate = X509Certificate2.CreateFromPem(text.AsSpan(from, to + End.Length - from));
        return AsOpenSsl(certificate.SerialNumber);
    }

    /// <summary>A serial as openssl prints it (and scripts/tls.sh renew reports it): .NET keeps the DER integer's
    /// leading zero byte, openssl drops it.</summary>
    public static string AsOpenSsl(string serial)
    {
        var trimmed = serial;
        while (trimmed.Length > 2 && trimmed.StartsWith("00", StringComparison.Ordinal))
        {
            trimmed = trimmed[2..];
        }

        return trimmed;
    }

    /// <summary>The serial of the certificate 127.0.0.1:<paramref name="port"/> serves, or null when nothing
    /// answers there with TLS. Any certificate is accepted: this only reads which one is served.</summary>
    public static async Task<string?> ServedAsync(int port, CancellationToken ct)
    {
        try
        {
            using var tcp = new TcpClient();
            await tcp.ConnectAsync("127.0.0.1", port, ct);
            // CA5359: nothing is trusted through this connection; it only reads which certificate is served.
#pragma warning disable CA5359
            await using var tls = new SslStream(tcp.GetStream(), false, (_, _, _, _) => true);
#pragma warning restore CA5359
            await tls.AuthenticateAsClientAsync(new SslClientAuthenticationOptions { TargetHost = "localhost" }, ct);
            using var served = tls.RemoteCertificate is { } remote ? new X509Certificate2(remote) : null;
            return served is null ? null : AsOpenSsl(served.SerialNumber);
        }
        catch (Exception ex) when (ex is SocketException or IOException or System.Security.Authentication.AuthenticationException)
        {
            return null;
        }
    }
}
