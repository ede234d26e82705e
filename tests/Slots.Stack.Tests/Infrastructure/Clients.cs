using System.Net;
using System.Net.Sockets;
using Slots.Testing;

namespace Slots.Stack.Tests.Infrastructure;

/// <summary>
/// HTTP clients that each connect from their own loopback address (127.0.0.2, 127.0.0.3, ...),
/// so HAProxy sees many people instead of one: its rate limits key on the client address. They speak
/// HTTPS to HAProxy and trust its local CA only (<see cref="HaproxyServer.Trusting"/>).
/// </summary>
public sealed class Clients : IDisposable
{
    private readonly HttpClient[] _clients;

    /// <param name="count">How many distinct addresses, at most 249 (127.0.0.2 .. 127.0.0.250).</param>
    public Clients(HaproxyServer haproxy, int count)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, 249);
        _clients = Enumerable.Range(2, count).Select(i => From(new IPAddress([127, 0, 0, (byte)i]), haproxy)).ToArray();
    }

    public int Count => _clients.Length;

    public HttpClient this[int i] => _clients[i % _clients.Length];

    public static HttpClient From(IPAddress local, HaproxyServer haproxy)
    {
        var handler = haproxy.TrustingHandler();
        handler.ConnectCallback = async (context, ct) =>
        {
            var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            try
            {
                socket.Bind(new IPEndPoint(local, 0));
                await socket.ConnectAsync(context.DnsEndPoint, ct);
                return new NetworkStream(socket, ownsSocket: true);
            }
            catch
            {
                socket.Dispose();
                throw;
            }
        };
        return new HttpClient(handler) { BaseAddress = haproxy.FrontAddress, Timeout = TimeSpan.FromSeconds(30) };
    }

    public void Dispose()
    {
        foreach (var client in _clients)
        {
            client.Dispose();
        }
    }
}
