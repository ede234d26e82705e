using System.Net.Security;
using System.Net.Sockets;
using System.Text;
using Slots.Stack.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Stack.Tests;

/// <summary>Requests an instance's Kestrel refuses before the API sees them, as a client behind HAProxy gets them.</summary>
[Collection(SerialStackTests.Name)]
public sealed class BadRequestTests(SharedApis shared)
{
    // Kestrel answers a NUL in the path with an empty 400 that no API code writes; HAProxy turns it
    // into a problem like every other answer.
    [Fact]
    public async Task A_path_kestrel_refuses_leaves_haproxy_as_a_problem()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        await using var haproxy = await StackProcesses.StartHaproxyAsync(shared.Apis, new Dictionary<string, string>(), "bad-requests", ct);
        using var tcp = new TcpClient();
        await tcp.ConnectAsync(haproxy.FrontAddress.Host, haproxy.FrontAddress.Port, ct);
        // The raw bytes over TLS: an HttpClient would escape the path before sending it.
        await using var tls = new SslStream(tcp.GetStream());
        await tls.AuthenticateAsClientAsync(new SslClientAuthenticationOptions
        {
            TargetHost = haproxy.FrontAddress.Host,
            ApplicationProtocols = [SslApplicationProtocol.Http11],
            CertificateChainPolicy = HaproxyServer.ChainPolicy(haproxy.Ca),
        }, ct);

        await tls.WriteAsync("GET /api/reservations/%00%2F..%2F HTTP/1.1\r\nHost: slots\r\nConnection: close\r\n\r\n"u8.ToArray(), ct);
        var answer = await new StreamReader(tls, Encoding.Latin1).ReadToEndAsync(ct);

        Assert.StartsWith("HTTP/1.1 400", answer, StringComparison.Ordinal);
        Assert.Contains("application/problem+json", answer, StringComparison.Ordinal);
        Assert.Contains("\"code\":\"bad-request\"", answer, StringComparison.Ordinal);
    }
}
