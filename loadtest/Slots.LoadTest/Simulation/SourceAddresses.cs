using System.Net;
using System.Net.Sockets;

namespace Slots.LoadTest.Simulation;

/// <summary>
/// One pooled HTTP client per source address 127.0.0.2 … 127.0.0.254. Rate limits key on the
/// client address, so a crowd from one address would be one very busy client; spread over many
/// addresses, per-client limits act as they do with real crowds. Each handler keeps its own
/// keep-alive pool, and a virtual user always talks through the same address.
/// </summary>
public sealed class SourceAddresses : IDisposable
{
    /// <summary>
    /// How long a connection may wait in a pool for its next request before it is closed instead of reused: less than
    /// the proxy's keep-alive (haproxy.cfg's "timeout http-keep-alive", 5 s), as a client's must be. A request sent on a
    /// connection the proxy is closing at that moment gets no answer; a read is sent again on a new connection by the
    /// handler, a booking is not (it has a body). Pooled for 30 s, 140 bookings of one stampede through the stack ended
    /// so (ResponseEnded), among users that had waited out a Retry-After. The handler closes idle connections on a
    /// timer (every second here), not as it takes one; the proxy's hint ("Keep-Alive: timeout=2", checked as a
    /// connection is taken) covers that. Neither covers a generator that reads an answer seconds after it arrived and
    /// sends the next request on that connection at once, after the proxy closed it: on shared CPUs that is most of what
    /// remains, and such a request is sent again at once (<see cref="Answers.ResentAtOnce"/>).
    /// </summary>
    public static readonly TimeSpan PooledIdle = TimeSpan.FromSeconds(4);

    private readonly HttpClient[] _clients;

    public SourceAddresses(int count, int maxConnectionsPerAddress, TimeSpan connectTimeout)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, SimulationOptions.MaxSources);
        _clients = new HttpClient[count];
        for (var i = 0; i < count; i++)
        {
            var source = Address(i);
            var handler = new SocketsHttpHandler
            {
                MaxConnectionsPerServer = maxConnectionsPerAddress,
                PooledConnectionIdleTimeout = PooledIdle,
                PooledConnectionLifetime = TimeSpan.FromMinutes(10),
                ConnectTimeout = connectTimeout,
                UseCookies = false,
                UseProxy = false,
                AllowAutoRedirect = false,
                AutomaticDecompression = DecompressionMethods.None,
                ConnectCallback = (context, ct) => ConnectFromAsync(source, context.DnsEndPoint, ct),
            }.TrustingStackCa();
            // Timeouts are per request (a linked token), so the client's own stays out of the way.
            _clients[i] = new HttpClient(handler) { Timeout = Timeout.InfiniteTimeSpan };
        }
    }

    public int Count => _clients.Length;

    public HttpClient For(long user) => _clients[(int)(user % _clients.Length)];

    /// <summary>127.0.0.2 for index 0, up to 127.0.0.254.</summary>
    public static IPAddress Address(int index) => new([127, 0, 0, (byte)(2 + index)]);

    private static async ValueTask<Stream> ConnectFromAsync(IPAddress source, DnsEndPoint target, CancellationToken ct)
    {
        // Only IPv4 loopback targets reach here (checked with the options); "localhost" is 127.0.0.1.
        var remote = IPAddress.TryParse(target.Host, out var ip) ? ip : IPAddress.Loopback;
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            socket.Bind(new IPEndPoint(source, 0));
            await socket.ConnectAsync(new IPEndPoint(remote, target.Port), ct);
            return new NetworkStream(socket, ownsSocket: true);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    public void Dispose()
    {
        foreach (var client in _clients)
        {
            client.Dispose();
        }
    }
}
