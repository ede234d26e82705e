using System.Buffers.Binary;
using System.Net;
using System.Text;
using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Tests;

public sealed class SocketWatchTests
{
    private const int Api = 5080;

    [Fact]
    public void Each_exchange_is_timed_from_its_requests_first_byte_to_its_answers_first_byte()
    {
        var pcap = new Capture();
        var a = IPAddress.Parse("127.0.0.5");
        var b = IPAddress.Parse("127.0.0.6");
        // A booking whose body follows its headers in a packet of its own, answered in two packets.
        pcap.Add(1.000, a, 40000, Api, "POST /api/reservations HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        pcap.Add(1.001, a, 40000, Api, "{\"placeId\":7}");
        // Another address with the same port: another connection, turned away at once.
        pcap.Add(1.010, b, 40000, Api, "POST /api/reservations HTTP/1.1\r\n\r\n");
        pcap.Add(1.011, Api, b, 40000, "HTTP/1.1 429 Too Many Requests\r\n\r\n");
        pcap.Add(1.012, a, 40000, Api, "");
        pcap.Add(1.025, Api, a, 40000, "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\n\r\n");
        pcap.Add(1.026, Api, a, 40000, "{\"code\":\"ABCDE\"}");
        // The same connection again (keep-alive): a week read.
        pcap.Add(2.000, a, 40000, Api, "GET /api/places/7/availability?from=2026-12-02&to=2026-12-08 HTTP/1.1\r\n\r\n");
        pcap.Add(2.002, Api, a, 40000, "HTTP/1.1 200 OK\r\n\r\n");
        // Another server's traffic, and a request never answered, count for nothing.
        pcap.Add(2.100, a, 40001, 5432, "POST /api/reservations HTTP/1.1\r\n\r\n");
        pcap.Add(2.101, 5432, a, 40001, "HTTP/1.1 201 Created\r\n\r\n");
        pcap.Add(2.200, b, 40002, Api, "POST /api/reservations HTTP/1.1\r\n\r\n");

        var answers = SocketWatch.Exchanges(pcap.Stream(), new HashSet<int> { Api });

        Assert.Equal(["availability 200", "reserve 201", "reserve 429"], answers.Keys.Order());
        Assert.Equal(25.0, Assert.Single(answers["reserve 201"]), 3);
        Assert.Equal(1.0, Assert.Single(answers["reserve 429"]), 3);
        Assert.Equal(2.0, Assert.Single(answers["availability 200"]), 3);
    }

    [Fact]
    public void Targets_behind_TLS_are_not_captured_and_the_reason_is_given()
    {
        Assert.Null(SocketWatch.Unreadable([new Uri("http://127.0.0.1:5080"), new Uri("http://127.0.0.1:5081")]));
        Assert.Contains("TLS", SocketWatch.Unreadable([new Uri("https://127.0.0.1:8443")]), StringComparison.Ordinal);
    }

    [Fact]
    public void A_file_that_is_not_a_capture_is_refused_by_name()
    {
        var error = Assert.Throws<InvalidDataException>(() => SocketWatch.Exchanges(new MemoryStream(new byte[24]), new HashSet<int> { Api }));
        Assert.Contains("not a little-endian pcap file", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void The_summary_gives_the_sockets_p99s_with_their_counts_or_why_they_were_not_measured()
    {
        var measured = new ServerLatency(SocketWatch.Source, new Dictionary<string, LatencyStats>
        {
            ["reserve 201"] = new(10, 20, 90, 175, 200),
            ["reserve 409"] = new(5, 21, 80, 160, 170),
            ["reserve 429"] = new(30, 6, 90, 300, 380),
            ["availability 200"] = new(40, 22, 130, 350, 900),
        });
        Assert.Equal($"; at the socket ({SocketWatch.Source}), p99 ms of 201 / 409 / 429: 175.0 / 160.0 / 300.0 (over 10 / 5 / 30); " +
            "availability 200 p50 22.00 ms, p99 350.00 ms over 40", Summary.AtSocket(measured));
        Assert.Equal("; at the socket: not measured: tcpdump did not capture",
            Summary.AtSocket(new ServerLatency("not measured: tcpdump did not capture", new Dictionary<string, LatencyStats>())));
        Assert.Equal("", Summary.AtSocket(null));
    }

    /// <summary>A pcap file as tcpdump -i lo writes it: Ethernet, IPv4, TCP with no options.</summary>
    private sealed class Capture
    {
        private readonly MemoryStream _bytes = new();

        public Capture()
        {
            var header = new byte[24];
            BinaryPrimitives.WriteUInt32LittleEndian(header, 0xa1b2c3d4);
            BinaryPrimitives.WriteUInt16LittleEndian(header.AsSpan(4), 2);
            BinaryPrimitives.WriteUInt16LittleEndian(header.AsSpan(6), 4);
            BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(16), 192);
            BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(20), 1);
            _bytes.Write(header);
        }

        /// <summary>From a client to a server port.</summary>
        public void Add(double at, IPAddress client, int clientPort, int serverPort, string payload) =>
            Write(at, client, clientPort, IPAddress.Loopback, serverPort, payload);

        /// <summary>From a server port back to a client.</summary>
        public void Add(double at, int serverPort, IPAddress client, int clientPort, string payload) =>
            Write(at, IPAddress.Loopback, serverPort, client, clientPort, payload);

        private void Write(double at, IPAddress from, int fromPort, IPAddress to, int toPort, string payload)
        {
            var data = Encoding.ASCII.GetBytes(payload);
            var packet = new byte[14 + 20 + 20 + data.Length];
            BinaryPrimitives.WriteUInt16BigEndian(packet.AsSpan(12), 0x0800);
            var ip = packet.AsSpan(14);
            ip[0] = 0x45;
            BinaryPrimitives.WriteUInt16BigEndian(ip[2..], (ushort)(20 + 20 + data.Length));
            ip[8] = 64;
            ip[9] = 6;
            from.GetAddressBytes().CopyTo(ip[12..]);
            to.GetAddressBytes().CopyTo(ip[16..]);
            var tcp = ip[20..];
            BinaryPrimitives.WriteUInt16BigEndian(tcp, (ushort)fromPort);
            BinaryPrimitives.WriteUInt16BigEndian(tcp[2..], (ushort)toPort);
            tcp[12] = 5 << 4;
            data.CopyTo(tcp[20..]);
            var kept = Math.Min(packet.Length, 192);
            var record = new byte[16];
            var seconds = Math.Floor(at);
            BinaryPrimitives.WriteUInt32LittleEndian(record, (uint)seconds);
            BinaryPrimitives.WriteUInt32LittleEndian(record.AsSpan(4), (uint)Math.Round((at - seconds) * 1e6));
            BinaryPrimitives.WriteUInt32LittleEndian(record.AsSpan(8), (uint)kept);
            BinaryPrimitives.WriteUInt32LittleEndian(record.AsSpan(12), (uint)packet.Length);
            _bytes.Write(record);
            _bytes.Write(packet, 0, kept);
        }

        public MemoryStream Stream() => new(_bytes.ToArray());
    }
}
