using System.Net;
using System.Net.Sockets;
using System.Text;
using Slots.Testing;

namespace Slots.Stack.Tests.Infrastructure;

/// <summary>
/// An instance for HAProxy's side of a test, over plain HTTP/1.1 on loopback: ready to its health check, a week's
/// availability at once (public for a second, as the API answers it), and a booking never, until disposed: the
/// bookings hold its connections so that the next ones wait in HAProxy's queue for as long as the test needs.
/// </summary>
public sealed class HeldUpstream : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Task> _connections = [];
    private readonly Task _accepting;
    private int _availabilityReads;
    private int _bookingsHeld;

    private readonly int _maxAge;

    private HeldUpstream(int maxAge)
    {
        _maxAge = maxAge;
        _listener.Start();
        _accepting = AcceptAsync();
    }

    /// <param name="maxAge">The availability answer's Cache-Control max-age in seconds (the API's is 1).</param>
    public static HeldUpstream Start(int maxAge = 1) => new(maxAge);

    /// <summary>host:port, as haproxy.cfg's SLOTS_API_n takes it.</summary>
    public string Address => $"127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}";

    public int AvailabilityReads => Volatile.Read(ref _availabilityReads);

    public int BookingsHeld => Volatile.Read(ref _bookingsHeld);

    private async Task AcceptAsync()
    {
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                var socket = await _listener.AcceptSocketAsync(_stop.Token);
                lock (_connections)
                {
                    _connections.Add(ServeAsync(socket));
                }
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    private async Task ServeAsync(Socket socket)
    {
        using var stream = new NetworkStream(socket, ownsSocket: true);
        var buffer = new byte[16 * 1024];
        var filled = 0;
        try
        {
            while (true)
            {
                int end;
                while ((end = Encoding.ASCII.GetString(buffer, 0, filled).IndexOf("\r\n\r\n", StringComparison.Ordinal)) < 0)
                {
                    var n = await stream.ReadAsync(buffer.AsMemory(filled), _stop.Token);
                    if (n == 0)
                    {
                        return;
                    }
                    filled += n;
                }
                var head = Encoding.ASCII.GetString(buffer, 0, end);
                var total = end + 4 + Http1.ContentLength(head.Split("\r\n"));
                while (filled < total)
                {
                    filled += await stream.ReadAsync(buffer.AsMemory(filled), _stop.Token);
                }
                Array.Copy(buffer, total, buffer, 0, filled - total);
                filled -= total;
                if (head.StartsWith("POST ", StringComparison.Ordinal))
                {
                    Interlocked.Increment(ref _bookingsHeld);
                    await Task.Delay(Timeout.Infinite, _stop.Token);
                }
                var availability = head.Split(' ')[1].Contains("/availability", StringComparison.Ordinal);
                if (availability)
                {
                    Interlocked.Increment(ref _availabilityReads);
                }
                var body = availability ? "{\"days\":[]}" : "ready";
                var answer = $"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: public, max-age={_maxAge}\r\nContent-Length: {body.Length}\r\n\r\n{body}";
                await stream.WriteAsync(Encoding.ASCII.GetBytes(answer), _stop.Token);
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or IOException)
        {
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        await _accepting;
        Task[] connections;
        lock (_connections)
        {
            connections = [.. _connections];
        }
        await Task.WhenAll(connections);
        _stop.Dispose();
    }
}
