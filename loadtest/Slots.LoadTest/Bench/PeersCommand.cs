using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography.X509Certificates;
using Slots.LoadTest.Simulation;
using Slots.Topology.Run;

namespace Slots.LoadTest.Bench;

/// <summary>
/// bench-peers (./slots bench peers): how much of its budget a client gets when it switches between the two HAProxy nodes
/// of the high-availability stack (haproxy/haproxy.cfg `peers`). Peers push whole stick-table values and the last writer
/// wins, so counts raised on both nodes at once are partly overwritten: a client that alternates nodes is admitted more
/// than one node's limit. Two nodes with the product's configuration, peers on loopback, and no API behind them: what the
/// rate limit admits is answered 503 (no server), what it refuses 429. One client address (127.0.0.1), three ways, each
/// for one rate period after the counters expired: every write to node 1; one stream, each write to the other node in
/// turn; two streams at once, one per node.
/// </summary>
internal static class PeersCommand
{
    public static async Task<int> RunAsync(Args args, CancellationToken ct)
    {
        var errors = new List<string>();
        var options = PeersOptions.From(args, Environment.GetEnvironmentVariable, errors);
        if (options is null)
        {
            return Cli.Fail(errors);
        }
        if (!BenchHost.OnPath("haproxy"))
        {
            Console.Error.WriteLine("haproxy is required (apt-get install haproxy)");
            return 1;
        }

        await using var host = BenchHost.Open("peers", CpuSplit.Shared(Environment.ProcessorCount));
        // HTTPS, as the stack serves it: a certificate from a local CA of this run.
        var tls = Path.Combine(host.Work, "tls");
        await Tool.RunAsync(Path.Combine(host.Root, "scripts", "tls.sh"), ["local", tls], TimeSpan.FromMinutes(1));
        var config = Path.Combine(host.Root, "haproxy", "haproxy.cfg");
        var nodes = new[] { 1, 2 }.Select(n => host.Own(ChildProcess.Start("haproxy", ["-L", $"haproxy{n}", "-f", config],
            options.NodeEnvironment(n, Path.Combine(tls, "server.pem")), Path.Combine(host.Work, $"haproxy{n}.log")))).ToList();
        await ApiMarkedDownAsync(options, ct);
        if (nodes.FirstOrDefault(n => n.HasExited) is { } failed)
        {
            throw new InvalidOperationException($"An HAProxy node did not start:\n{failed.Tail()}");
        }

        using var http = WriteClient(Path.Combine(tls, "ca.crt"));
        var one = await StreamAsync(http, options.Seconds, [options.Front(1)], ct);
        await Task.Delay(options.Calm, ct);
        var alternating = await StreamAsync(http, options.Seconds, [options.Front(1), options.Front(2)], ct);
        await Task.Delay(options.Calm, ct);
        var both = await Task.WhenAll(StreamAsync(http, options.Seconds, [options.Front(1)], ct), StreamAsync(http, options.Seconds, [options.Front(2)], ct));

        var figures = new PeersFigures(options.Writes, options.Seconds, one.Admitted, alternating.Admitted, both.Sum(b => b.Admitted));
        if (one.Unanswered + alternating.Unanswered + both.Sum(b => b.Unanswered) is > 0 and var unanswered)
        {
            Console.Error.WriteLine($"{unanswered} writes got no answer within 2 s; they are not counted");
        }
        var file = Path.Combine(host.Root, PeersFigures.ResultsFile);
        Directory.CreateDirectory(Path.GetDirectoryName(file)!);
        await File.WriteAllTextAsync(file, figures.ToJson() + "\n", ct);
        foreach (var line in figures.Lines())
        {
            Console.WriteLine(line);
        }
        Console.WriteLine($"written to {PeersFigures.ResultsFile}");
        return 0;
    }

    /// <summary>Until both nodes mark the absent API down (at most 20 s): from then on an admitted write is answered 503 at once.</summary>
    private static async Task ApiMarkedDownAsync(PeersOptions options, CancellationToken ct)
    {
        using var stats = new HttpClient { Timeout = TimeSpan.FromSeconds(1) };
        for (var attempt = 0; attempt < 40; attempt++)
        {
            var down = 0;
            foreach (var node in new[] { 1, 2 })
            {
                if (await HaproxyStats.ReadAsync(stats, options.Stats(node), ct) is { } servers
                    && servers.Any(s => s is { Backend: "api", Name: "api1" } && s.Status.StartsWith("DOWN", StringComparison.Ordinal)))
                {
                    down++;
                }
            }
            if (down == 2)
            {
                return;
            }
            await Task.Delay(500, ct);
        }
    }

    /// <summary>
    /// Writes for one rate period, to <paramref name="ports"/> in turn: how many the rate limit let through (any answer but
    /// 429), and how many got no answer. The script counted a write curl failed on as admitted, and over HTTP/2 curl failed
    /// on every 429 (HAProxy cancels the stream whose body it does not read); this client speaks HTTP/1.1 and counts apart.
    /// </summary>
    private static async Task<(int Admitted, int Unanswered)> StreamAsync(HttpClient http, int seconds, IReadOnlyList<int> ports, CancellationToken ct)
    {
        var period = TimeSpan.FromSeconds(seconds);
        var clock = Stopwatch.StartNew();
        var (admitted, unanswered) = (0, 0);
        for (var i = 0; clock.Elapsed < period; i++)
        {
            switch (await WriteAsync(http, ports[i % ports.Count], ct))
            {
                case null:
                    unanswered++;
                    break;
                case not HttpStatusCode.TooManyRequests:
                    admitted++;
                    break;
            }
        }
        return (admitted, unanswered);
    }

    /// <summary>One booking write to a node; its status, or null when no answer came within the client's 2 s.</summary>
    private static async Task<HttpStatusCode?> WriteAsync(HttpClient http, int port, CancellationToken ct)
    {
        // Each write on a connection of its own, as the script's curl made them: the pace of the writes, and so how often
        // both nodes count before the peers exchange, stays the script's.
        using var write = new HttpRequestMessage(HttpMethod.Post, new Uri($"https://127.0.0.1:{port}/api/reservations"))
        {
            Content = new StringContent("{}", new MediaTypeHeaderValue("application/json")),
            Headers = { ConnectionClose = true },
        };
        try
        {
            using var answer = await http.SendAsync(write, ct);
            return answer.StatusCode;
        }
        catch (HttpRequestException)
        {
            return null;
        }
        catch (TaskCanceledException) when (!ct.IsCancellationRequested)
        {
            return null;
        }
    }

    /// <summary>A client that trusts this run's CA and no other, waiting 2 s at most for an answer (the script's curl --max-time).</summary>
    private static HttpClient WriteClient(string caFile) =>
        new(new SocketsHttpHandler().TrustingOnly(X509Certificate2.CreateFromPem(File.ReadAllText(caFile)))) { Timeout = TimeSpan.FromSeconds(2) };
}
