using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.RegularExpressions;
using Slots.LoadTest.Simulation;
using Slots.Testing;

namespace Slots.LoadTest.Tests;

public sealed partial class SourceAddressesTests
{
    [Fact]
    public void A_pooled_connection_is_closed_sooner_than_the_proxy_closes_it()
    {
        Assert.True(SourceAddresses.PooledIdle <= ProxyKeepAlive() - TimeSpan.FromSeconds(1),
            $"the generator keeps idle connections {SourceAddresses.PooledIdle}, the proxy {ProxyKeepAlive()}");
    }

    [Fact]
    public async Task A_booking_sent_after_the_proxys_keep_alive_goes_out_on_a_new_connection_and_is_answered()
    {
        // A server that, like a proxy whose idle close crosses the next request, drops a request that comes on a
        // connection idle for the proxy's keep-alive or longer, without an answer.
        var keepAlive = ProxyKeepAlive();
        using var server = new ClosingServer(keepAlive);
        using var sources = new SourceAddresses(1, 4, TimeSpan.FromSeconds(2));
        var client = sources.For(0);

        var first = await client.PostAsync(server.Uri, new ByteArrayContent("{}"u8.ToArray()), TestContext.Current.CancellationToken);
        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        await Task.Delay(keepAlive + TimeSpan.FromMilliseconds(300), TestContext.Current.CancellationToken);
        var second = await client.PostAsync(server.Uri, new ByteArrayContent("{}"u8.ToArray()), TestContext.Current.CancellationToken);

        Assert.Equal(HttpStatusCode.OK, second.StatusCode);
        Assert.Equal((2, 0), (server.Connections, server.Dropped));
    }

    /// <summary>haproxy.cfg's keep-alive: "timeout http-keep-alive", else "timeout http-request", as HAProxy reads them.</summary>
    private static TimeSpan ProxyKeepAlive()
    {
        var config = File.ReadAllText(HaproxyServer.ConfigPath);
        var match = KeepAlive().Match(config) is { Success: true } keepAlive ? keepAlive : HttpRequest().Match(config);
        Assert.True(match.Success, "haproxy.cfg sets no keep-alive");
        return TimeSpan.FromSeconds(int.Parse(match.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture));
    }

    [GeneratedRegex(@"^\s*timeout http-keep-alive (\d+)s\s*$", RegexOptions.Multiline)]
    private static partial Regex KeepAlive();

    [GeneratedRegex(@"^\s*timeout http-request (\d+)s\s*$", RegexOptions.Multiline)]
    private static partial Regex HttpRequest();

    /// <summary>HTTP/1.1 on loopback: answers each request 200, but drops one that comes after the keep-alive.</summary>
    private sealed class ClosingServer : IDisposable
    {
        private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
        private readonly TimeSpan _keepAlive;
        private readonly CancellationTokenSource _stop = new();
        private int _connections;
        private int _dropped;

        public ClosingServer(TimeSpan keepAlive)
        {
            _keepAlive = keepAlive;
            _listener.Start();
            _ = AcceptAsync();
        }

        public Uri Uri => new($"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}/api/reservations");

        public int Connections => Volatile.Read(ref _connections);

        public int Dropped => Volatile.Read(ref _dropped);

        private async Task AcceptAsync()
        {
            while (!_stop.IsCancellationRequested)
            {
                TcpClient connection;
                try
                {
                    connection = await _listener.AcceptTcpClientAsync(_stop.Token);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
                Interlocked.Increment(ref _connections);
                _ = ServeAsync(connection);
            }
        }

        private async Task ServeAsync(TcpClient connection)
        {
            using var _ = connection;
            var stream = connection.GetStream();
            var answeredAt = (long?)null;
            var buffer = new byte[4096];
            var read = new StringBuilder();
            try
            {
                while (true)
                {
                    var n = await stream.ReadAsync(buffer, _stop.Token);
                    if (n == 0)
                    {
                        return;
                    }
                    read.Append(Encoding.ASCII.GetString(buffer, 0, n));
                    var text = read.ToString();
                    var end = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
                    if (end < 0)
                    {
                        continue;
                    }
                    var length = Http1.ContentLength(text[..end].Split("\r\n"));
                    if (text.Length < end + 4 + length)
                    {
                        continue;
                    }
                    read.Remove(0, end + 4 + length);
                    if (answeredAt is { } at && System.Diagnostics.Stopwatch.GetElapsedTime(at) >= _keepAlive)
                    {
                        Interlocked.Increment(ref _dropped);
                        return;
                    }
                    await stream.WriteAsync("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"u8.ToArray(), _stop.Token);
                    answeredAt = System.Diagnostics.Stopwatch.GetTimestamp();
                }
            }
            catch (Exception ex) when (ex is OperationCanceledException or IOException)
            {
            }
        }

        public void Dispose()
        {
            _stop.Cancel();
            _listener.Stop();
            _stop.Dispose();
        }
    }
}
