using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text.RegularExpressions;
using Slots.Stack.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Stack.Tests;

/// <summary>
/// HAProxy closes a client's connection idle for "timeout http-keep-alive"; a request the client sends into that close
/// gets no answer at all. HTTP/1 clients are told a shorter idle time, and one that honours it opens a new connection
/// instead of sending on one HAProxy may be closing.
/// </summary>
[Collection(SerialStackTests.Name)]
public sealed partial class KeepAliveTests
{
    [Fact]
    public async Task An_http1_client_is_told_to_stop_reusing_an_idle_connection_before_haproxy_closes_it_and_does()
    {
        StackProcesses.SkipWithoutHaproxy();
        var ct = TestContext.Current.CancellationToken;
        await using var upstream = HeldUpstream.Start();
        await using var haproxy = await StackProcesses.StartHaproxyAsync([upstream.Address], new Dictionary<string, string>(), "keep-alive", ct);
        var connections = 0;
        // .NET's default pool: idle connections kept for a minute, as a client that sets nothing has them.
        var handler = haproxy.TrustingHandler();
        handler.ConnectCallback = async (context, token) =>
        {
            Interlocked.Increment(ref connections);
            var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            try
            {
                await socket.ConnectAsync(context.DnsEndPoint, token);
                return new NetworkStream(socket, ownsSocket: true);
            }
            catch
            {
                socket.Dispose();
                throw;
            }
        };
        using var client = new HttpClient(handler) { BaseAddress = haproxy.FrontAddress };

        using var first = await client.GetAsync("/health/ready", ct);
        var hint = first.Headers.TryGetValues("Keep-Alive", out var values) ? string.Join(", ", values) : null;
        using var soon = await client.GetAsync("/health/ready", ct);
        var reusedSoon = Volatile.Read(ref connections);
        var told = hint is not null && Timeout().Match(hint) is { Success: true } m ? int.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture) : 0;
        await Task.Delay(TimeSpan.FromSeconds(Math.Max(told, 1)) + TimeSpan.FromMilliseconds(300), ct);
        using var later = await client.GetAsync("/health/ready", ct);

        Figures.Report($"keep-alive: HAProxy closes idle connections after {ProxyKeepAlive().TotalSeconds:0} s and tells HTTP/1 clients '{hint}'; connections {Volatile.Read(ref connections)} for 3 requests");
        Assert.Equal([HttpStatusCode.OK, HttpStatusCode.OK, HttpStatusCode.OK], new[] { first.StatusCode, soon.StatusCode, later.StatusCode });
        Assert.NotNull(hint);
        // At least a second's margin: the client's idle clock starts when it has read the answer, later than HAProxy's.
        Assert.InRange(told, 1, (int)ProxyKeepAlive().TotalSeconds - 2);
        // Reused at once; past the hint a new connection, not one HAProxy could be closing.
        Assert.Equal(1, reusedSoon);
        Assert.Equal(2, Volatile.Read(ref connections));
    }

    [Fact]
    public async Task An_http2_answer_carries_no_keep_alive_header()
    {
        StackProcesses.SkipWithoutHaproxy();
        var ct = TestContext.Current.CancellationToken;
        await using var upstream = HeldUpstream.Start();
        await using var haproxy = await StackProcesses.StartHaproxyAsync([upstream.Address], new Dictionary<string, string>(), "keep-alive-h2", ct);
        using var client = new HttpClient(haproxy.TrustingHandler())
        {
            BaseAddress = haproxy.FrontAddress,
            DefaultRequestVersion = HttpVersion.Version20,
            DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };

        using var answer = await client.GetAsync("/health/ready", ct);

        Assert.Equal(HttpStatusCode.OK, answer.StatusCode);
        Assert.Equal(HttpVersion.Version20, answer.Version);
        Assert.False(answer.Headers.Contains("Keep-Alive"));
    }

    /// <summary>haproxy.cfg's "timeout http-keep-alive".</summary>
    private static TimeSpan ProxyKeepAlive()
    {
        var match = KeepAlive().Match(File.ReadAllText(HaproxyServer.ConfigPath));
        Assert.True(match.Success, "haproxy.cfg sets no timeout http-keep-alive");
        return TimeSpan.FromSeconds(int.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture));
    }

    [GeneratedRegex(@"^\s*timeout http-keep-alive (\d+)s\s*$", RegexOptions.Multiline)]
    private static partial Regex KeepAlive();

    [GeneratedRegex(@"\btimeout=(\d+)\b")]
    private static partial Regex Timeout();
}
