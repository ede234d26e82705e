using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Text;
using Slots.Testing;

namespace Slots.Stack.Tests.Infrastructure;

/// <summary>
/// One TLS connection to HAProxy's front, written and read by hand: for what HttpClient hides, such as whether HAProxy kept
/// the connection after an answer (HttpClient would quietly open another).
/// </summary>
public sealed class RawHttps : IAsyncDisposable
{
    private readonly TcpClient _tcp;
    private readonly SslStream _tls;

    private RawHttps(TcpClient tcp, SslStream tls, string host)
    {
        _tcp = tcp;
        _tls = tls;
        Host = host;
    }

    /// <summary>The Host header HttpClient sends to this front (HAProxy's cache keys on it with the path).</summary>
    public string Host { get; }

    public static async Task<RawHttps> ConnectAsync(HaproxyServer haproxy, CancellationToken ct)
    {
        var tcp = new TcpClient();
        try
        {
            await tcp.ConnectAsync(IPAddress.Loopback, haproxy.FrontPort, ct);
            var tls = new SslStream(tcp.GetStream());
            await tls.AuthenticateAsClientAsync(new SslClientAuthenticationOptions
            {
                TargetHost = "localhost",
                CertificateChainPolicy = HaproxyServer.ChainPolicy(haproxy.Ca),
            }, ct);
            return new RawHttps(tcp, tls, $"127.0.0.1:{haproxy.FrontPort}");
        }
        catch
        {
            tcp.Dispose();
            throw;
        }
    }

    public async Task WriteAsync(string text, CancellationToken ct)
    {
        await _tls.WriteAsync(Encoding.ASCII.GetBytes(text), ct);
        await _tls.FlushAsync(ct);
    }

    /// <summary>The status of one HTTP/1.1 response (headers, then Content-Length bytes); "closed" at the end of the stream.</summary>
    public async Task<string> ReadStatusAsync(CancellationToken ct)
    {
        var text = new StringBuilder();
        var one = new byte[1];
        while (!text.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal))
        {
            if (await _tls.ReadAsync(one, ct) == 0)
            {
                return "closed";
            }
            text.Append((char)one[0]);
        }
        var lines = text.ToString().Split("\r\n");
        var rest = new byte[Http1.ContentLength(lines)];
        await _tls.ReadExactlyAsync(rest, ct);
        return lines[0].Split(' ')[1];
    }

    public async ValueTask DisposeAsync()
    {
        await _tls.DisposeAsync();
        _tcp.Dispose();
    }
}
