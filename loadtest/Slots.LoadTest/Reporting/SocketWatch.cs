using System.Buffers.Binary;
using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace Slots.LoadTest.Reporting;

/// <summary>
/// Latency at the socket (--socket-timings true): tcpdump records the loopback traffic to the targets' ports for the run,
/// and each HTTP/1.1 exchange is timed from the first byte of its request reaching the target's port to the first byte
/// of its answer leaving it. The API's histograms start when the handler runs; this takes in what comes before it (the
/// request waiting in the socket for Kestrel to read it, the thread pool's queue, the middleware and the rate limiter)
/// and leaves out, as they do, the generator's own wait for a core, which on the 2-core machine is most of what the
/// client measures. Needs tcpdump and the right to capture (root or CAP_NET_RAW); the capture's own CPU is reported as
/// the process "capture".
/// </summary>
public sealed class SocketWatch : IAsyncDisposable
{
    public const string Source = "tcpdump on the loopback, the request's first byte in to the answer's first byte out";

    // Enough of each packet for the link, IP and TCP headers and the request line up to the query ("GET /api/places/N/availability").
    private const int Snap = 192;

    private readonly Process _tcpdump;
    private readonly string _file;
    private readonly HashSet<int> _ports;
    private readonly StringBuilder _said = new();
    private readonly Task _stderr;

    private SocketWatch(Process tcpdump, string file, HashSet<int> ports)
    {
        _tcpdump = tcpdump;
        _file = file;
        _ports = ports;
        _stderr = DrainAsync();
    }

    /// <summary>The capture's process id (its CPU is watched as the role "capture").</summary>
    public int Pid => _tcpdump.Id;

    /// <summary>
    /// Why a capture of these targets could not be read, or null: an exchange is found by its request line and status
    /// line, which TLS hides (the stack's front speaks HTTPS; HAProxy's log times its answers there).
    /// </summary>
    public static string? Unreadable(IReadOnlyList<Uri> targets) =>
        targets.Any(t => t.Scheme != Uri.UriSchemeHttp) ? "the targets speak TLS, which hides the request and status lines" : null;

    /// <summary>Starts tcpdump on the loopback for the targets' ports and waits until it captures; throws with tcpdump's own words when it cannot.</summary>
    public static async Task<SocketWatch> StartAsync(IReadOnlyList<Uri> targets, CancellationToken ct)
    {
        var ports = targets.Select(t => t.Port).ToHashSet();
        // In memory where there is a tmpfs: a stampede's capture is a hundred MB or more, and written back to the disk the
        // PostgreSQL under test commits to, it would be part of what the run measures.
        var folder = Directory.Exists("/dev/shm") ? "/dev/shm" : Path.GetTempPath();
        var file = Path.Combine(folder, $"slots-socket-{Environment.ProcessId}-{Guid.NewGuid():N}.pcap");
        var filter = "tcp and (" + string.Join(" or ", ports.Select(p => string.Create(CultureInfo.InvariantCulture, $"port {p}"))) + ")";
        var start = new ProcessStartInfo("tcpdump") { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (var arg in (string[])["-i", "lo", "-n", "-s", Snap.ToString(CultureInfo.InvariantCulture), "-B", "65536", "-w", file, filter])
        {
            start.ArgumentList.Add(arg);
        }
        Process tcpdump;
        try
        {
            tcpdump = Process.Start(start) ?? throw new InvalidOperationException("tcpdump did not start");
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            throw new InvalidOperationException($"tcpdump cannot be run ({ex.Message}); install it (Debian: apt-get install tcpdump)", ex);
        }
        var watch = new SocketWatch(tcpdump, file, ports);
        var until = Stopwatch.StartNew();
        while (!watch.Listening)
        {
            if (tcpdump.HasExited || until.Elapsed > TimeSpan.FromSeconds(10))
            {
                await watch.DisposeAsync();
                throw new InvalidOperationException($"tcpdump did not capture: {watch.Said.Trim()}");
            }
            await Task.Delay(50, ct);
        }
        return watch;
    }

    private string Said
    {
        get
        {
            lock (_said)
            {
                return _said.ToString();
            }
        }
    }

    private bool Listening => Said.Contains("listening on", StringComparison.Ordinal);

    private async Task DrainAsync()
    {
        while (await _tcpdump.StandardError.ReadLineAsync() is { } line)
        {
            lock (_said)
            {
                _said.AppendLine(line);
            }
        }
    }

    /// <summary>Stops the capture (tcpdump writes out what it holds on SIGTERM) and times every exchange in it.</summary>
    public async Task<ServerLatency> StopAsync(CancellationToken ct)
    {
        await StopCaptureAsync();
        await using var pcap = File.OpenRead(_file);
        var answers = Exchanges(pcap, _ports);
        // tcpdump's closing lines: "N packets captured", "N packets received by filter", "N packets dropped by kernel".
        var dropped = Said.Split('\n').FirstOrDefault(l => l.Contains("dropped by kernel", StringComparison.Ordinal))?.Trim();
        var source = dropped is null || dropped.StartsWith("0 ", StringComparison.Ordinal) ? Source : $"{Source}; {dropped}: some exchanges are missing";
        return new ServerLatency(source, answers.ToDictionary(kv => kv.Key, kv => LatencyStats.Of(kv.Value).Rounded()));
    }

    private async Task StopCaptureAsync()
    {
        if (!_tcpdump.HasExited)
        {
            using var kill = Process.Start(new ProcessStartInfo("kill", ["-TERM", _tcpdump.Id.ToString(CultureInfo.InvariantCulture)]) { UseShellExecute = false });
            if (kill is not null)
            {
                await kill.WaitForExitAsync();
            }
            using var patience = new CancellationTokenSource(TimeSpan.FromSeconds(10));
            try
            {
                await _tcpdump.WaitForExitAsync(patience.Token);
            }
            catch (OperationCanceledException)
            {
                _tcpdump.Kill();
            }
        }
        await _stderr;
    }

    public async ValueTask DisposeAsync()
    {
        await StopCaptureAsync();
        _tcpdump.Dispose();
        File.Delete(_file);
    }

    /// <summary>
    /// Each HTTP/1.1 exchange of a capture (pcap, as tcpdump writes it on this machine) with a server on one of
    /// <paramref name="ports"/>, timed in ms from its request's first byte to its answer's first byte and grouped as the
    /// client groups them ("reserve 201", "availability 200"). A request's later packets (a body sent apart from its
    /// headers) and an answer's later packets are not new exchanges; a request with no answer in the capture is not counted.
    /// </summary>
    public static Dictionary<string, List<double>> Exchanges(Stream pcap, IReadOnlySet<int> ports)
    {
        var header = new byte[24];
        pcap.ReadExactly(header);
        var magic = BinaryPrimitives.ReadUInt32LittleEndian(header);
        var perSecond = magic switch
        {
            0xa1b2c3d4 => 1e6,
            0xa1b23c4d => 1e9,
            _ => throw new InvalidDataException($"not a little-endian pcap file (magic 0x{magic:x8})"),
        };
        var link = BinaryPrimitives.ReadUInt32LittleEndian(header.AsSpan(20));
        var linkLength = link switch
        {
            1 => 14,    // Ethernet: what tcpdump -i lo records on Linux
            113 => 16,  // Linux cooked capture (-i any)
            276 => 20,  // Linux cooked capture v2
            _ => throw new InvalidDataException($"link type {link} is not one this reader knows"),
        };
        var pending = new Dictionary<(UInt128 Address, int Port, int Server), (double At, string Kind)>();
        var answers = new Dictionary<string, List<double>>(StringComparer.Ordinal);
        var record = new byte[16];
        var data = new byte[65536];
        while (pcap.ReadAtLeast(record, 16, throwOnEndOfStream: false) == 16)
        {
            var at = BinaryPrimitives.ReadUInt32LittleEndian(record) + (BinaryPrimitives.ReadUInt32LittleEndian(record.AsSpan(4)) / perSecond);
            var kept = (int)BinaryPrimitives.ReadUInt32LittleEndian(record.AsSpan(8));
            if (kept > data.Length || pcap.ReadAtLeast(data.AsSpan(0, kept), kept, throwOnEndOfStream: false) < kept)
            {
                break; // a capture cut off in its last record
            }
            if (Segment(data.AsSpan(linkLength, kept - linkLength)) is not { } segment)
            {
                continue;
            }
            var (source, sourcePort, destination, destinationPort, payload) = segment;
            if (ports.Contains(destinationPort))
            {
                var key = (source, sourcePort, destinationPort);
                if (!pending.ContainsKey(key) && RequestKind(data.AsSpan(linkLength + payload.Start, payload.Length)) is { } kind)
                {
                    pending[key] = (at, kind);
                }
            }
            else if (ports.Contains(sourcePort) && Status(data.AsSpan(linkLength + payload.Start, payload.Length)) is { } status
                && pending.Remove((destination, destinationPort, sourcePort), out var request))
            {
                var name = $"{request.Kind} {status}";
                (answers.TryGetValue(name, out var list) ? list : answers[name] = []).Add((at - request.At) * 1000);
            }
        }
        return answers;
    }

    /// <summary>A TCP segment's addresses, ports and where its payload lies in the IP packet; null when it is not TCP or carries nothing.</summary>
    private static (UInt128, int, UInt128, int, (int Start, int Length))? Segment(ReadOnlySpan<byte> ip)
    {
        if (ip.Length < 20)
        {
            return null;
        }
        int headerLength, total;
        UInt128 source, destination;
        switch (ip[0] >> 4)
        {
            case 4 when ip[9] == 6:
                headerLength = (ip[0] & 0x0f) * 4;
                total = BinaryPrimitives.ReadUInt16BigEndian(ip[2..]);
                source = BinaryPrimitives.ReadUInt32BigEndian(ip[12..]);
                destination = BinaryPrimitives.ReadUInt32BigEndian(ip[16..]);
                break;
            case 6 when ip.Length >= 40 && ip[6] == 6:
                headerLength = 40;
                total = 40 + BinaryPrimitives.ReadUInt16BigEndian(ip[4..]);
                source = BinaryPrimitives.ReadUInt128BigEndian(ip[8..]);
                destination = BinaryPrimitives.ReadUInt128BigEndian(ip[24..]);
                break;
            default:
                return null;
        }
        if (ip.Length < headerLength + 20)
        {
            return null;
        }
        var tcp = ip[headerLength..];
        var tcpLength = (tcp[12] >> 4) * 4;
        var start = headerLength + tcpLength;
        var length = Math.Min(total, ip.Length) - start;
        return length <= 0 ? null
            : (source, BinaryPrimitives.ReadUInt16BigEndian(tcp), destination, BinaryPrimitives.ReadUInt16BigEndian(tcp[2..]), (start, length));
    }

    /// <summary>"reserve", "availability"… from a request line ("POST /api/reservations HTTP/1.1"); null when the bytes do not start one.</summary>
    private static string? RequestKind(ReadOnlySpan<byte> payload)
    {
        var space = payload.IndexOf((byte)' ');
        if (space is < 3 or > 7 || !IsMethod(payload[..space]))
        {
            return null;
        }
        var rest = payload[(space + 1)..];
        var end = rest.IndexOfAny((byte)' ', (byte)'\r');
        var path = Encoding.ASCII.GetString(end < 0 ? rest : rest[..end]);
        return ServerTimings.Kind(Encoding.ASCII.GetString(payload[..space]), path);
    }

    private static bool IsMethod(ReadOnlySpan<byte> word)
    {
        foreach (var b in word)
        {
            if (b is < (byte)'A' or > (byte)'Z')
            {
                return false;
            }
        }
        return true;
    }

    /// <summary>The status of an answer's first bytes ("HTTP/1.1 201 Created" → "201"); null for an answer's later packets.</summary>
    private static string? Status(ReadOnlySpan<byte> payload) =>
        payload.Length >= 12 && payload.StartsWith("HTTP/1.1 "u8) && char.IsAsciiDigit((char)payload[9]) && char.IsAsciiDigit((char)payload[10]) && char.IsAsciiDigit((char)payload[11])
            ? Encoding.ASCII.GetString(payload[9..12])
            : null;
}
