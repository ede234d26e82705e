using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Security;
using System.Security.Cryptography.X509Certificates;
using System.Text.Json;
using Slots.Stack.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Stack.Tests;

/// <summary>TLS at the edge: HTTPS only, HTTP/2 by ALPN, HSTS, redirects, a reload that renews the certificate, and testssl.sh's verdict.</summary>
[Collection(SerialStackTests.Name)]
public sealed class TlsTests(SharedApis shared)
{
    private const string Hsts = "max-age=63072000";

    [Fact]
    public async Task HTTPS_speaks_HTTP2_by_ALPN_every_answer_carries_HSTS_and_plain_HTTP_only_redirects()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        await using var haproxy = await StackProcesses.StartHaproxyAsync(shared.Apis, new Dictionary<string, string>
        {
            // Two reads per period: the third is HAProxy's own 429, which must carry HSTS as well.
            ["SLOTS_RATE_READS"] = "2",
        }, "tls-front", ct);
        using var client = new HttpClient(haproxy.TrustingHandler())
        {
            BaseAddress = haproxy.FrontAddress,
            DefaultRequestVersion = HttpVersion.Version20,
            DefaultVersionPolicy = HttpVersionPolicy.RequestVersionOrLower,
        };
        using var plain = new HttpClient(new SocketsHttpHandler { AllowAutoRedirect = false });
        using var untrusting = new HttpClient();

        var answered = await client.GetAsync("/api/places/regions", ct);
        await client.GetAsync("/api/places/regions", ct);
        var refused = await client.GetAsync("/api/places/regions", ct);
        var get = await plain.GetAsync($"http://127.0.0.1:{haproxy.RedirectPort}/api/places/regions?page=2", ct);
        var post = await plain.PostAsync($"http://localhost:{haproxy.RedirectPort}/api/reservations", new StringContent("{}"), ct);
        var crl = await plain.GetAsync($"http://127.0.0.1:{haproxy.RedirectPort}/slots-local-ca.crl", ct);
        var unknownCa = await Record.ExceptionAsync(() => untrusting.GetAsync(haproxy.FrontAddress, ct));

        Assert.Equal(HttpStatusCode.OK, answered.StatusCode);
        Assert.Equal(HttpVersion.Version20, answered.Version);
        Assert.Equal(Hsts, Assert.Single(answered.Headers.GetValues("Strict-Transport-Security")));
        Assert.Equal(HttpStatusCode.TooManyRequests, refused.StatusCode);
        Assert.Equal(Hsts, Assert.Single(refused.Headers.GetValues("Strict-Transport-Security")));
        // GET and HEAD: 301; anything else 308, which keeps the method and the body. Path and query kept.
        Assert.Equal(HttpStatusCode.MovedPermanently, get.StatusCode);
        Assert.Equal(new Uri($"https://127.0.0.1:{haproxy.FrontPort}/api/places/regions?page=2"), get.Headers.Location);
        Assert.Equal(HttpStatusCode.PermanentRedirect, post.StatusCode);
        Assert.Equal(new Uri($"https://localhost:{haproxy.FrontPort}/api/reservations"), post.Headers.Location);
        // The local CA's revocation list, where the certificate's CRL distribution point says, and signed by that CA.
        Assert.Equal(HttpStatusCode.OK, crl.StatusCode);
        Assert.Equal("application/pkix-crl", crl.Content.Headers.ContentType?.MediaType);
        var certificate = X509Certificate2.CreateFromPem(await File.ReadAllTextAsync(haproxy.CertificatePath, ct));
        Assert.Contains($"http://127.0.0.1:{haproxy.RedirectPort}/slots-local-ca.crl", CrlDistributionPoint(certificate), StringComparison.Ordinal);
        // A client that does not trust the local CA is refused: the tests trust it, they do not skip the check.
        Assert.IsType<HttpRequestException>(unknownCa);
    }

    [Fact]
    public async Task A_renewed_certificate_is_served_after_a_reload_while_a_keep_alive_client_is_answered_throughout()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        await using var haproxy = await StackProcesses.StartHaproxyAsync(shared.Apis, new Dictionary<string, string>
        {
            ["SLOTS_RATE_READS"] = "100000",
        }, "tls-reload", ct);
        var before = await ServedSerialAsync(haproxy);
        // One connection, reused while the server keeps it: the certificate each new connection was shown is recorded.
        var shown = new ConcurrentQueue<string>();
        var handler = haproxy.TrustingHandler();
        handler.MaxConnectionsPerServer = 1;
        handler.SslOptions.RemoteCertificateValidationCallback = (_, certificate, _, errors) =>
        {
            shown.Enqueue(Serial(certificate!.GetSerialNumberString()));
            return errors == SslPolicyErrors.None;
        };
        using var client = new HttpClient(handler) { BaseAddress = haproxy.FrontAddress, Timeout = TimeSpan.FromSeconds(10) };
        using var stop = new CancellationTokenSource();
        var answers = new ConcurrentQueue<string>();
        var keepAlive = Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                try
                {
                    answers.Enqueue(((int)(await client.GetAsync("/api/places/regions", CancellationToken.None)).StatusCode).ToString(CultureInfo.InvariantCulture));
                }
                catch (HttpRequestException ex)
                {
                    answers.Enqueue(ex.Message);
                }
                await Task.Delay(10, CancellationToken.None);
            }
        }, CancellationToken.None);
        await WaitAsync(() => answers.Count >= 20, "the keep-alive client's first answers");

        await HaproxyServer.TlsScriptAsync(["renew", haproxy.TlsFolder], new Dictionary<string, string>
        {
            ["SLOTS_TLS_CRL_URL"] = $"http://127.0.0.1:{haproxy.RedirectPort}/slots-local-ca.crl",
        });
        var renewed = Serial(await HaproxyServer.TlsScriptAsync(["serial", haproxy.CertificatePath]));
        var reloadedAt = answers.Count;
        var clock = Stopwatch.StartNew();
        await haproxy.ReloadAsync();
        await WaitAsync(async () => await ServedSerialAsync(haproxy) == renewed, "the renewed certificate served");
        var took = clock.Elapsed;
        await WaitAsync(() => shown.Contains(renewed) && answers.Count > reloadedAt + 20, "the keep-alive client on the renewed certificate");
        await stop.CancelAsync();
        await keepAlive;

        Figures.Report($"certificate reload: {before} -> {renewed} served {took.TotalMilliseconds:F0} ms after SIGUSR2; the keep-alive client sent {answers.Count} requests over {shown.Count} connections, {answers.Count(a => a != "200")} not answered 200");
        Assert.NotEqual(before, renewed);
        Assert.All(answers, a => Assert.Equal("200", a));
        Assert.Equal(before, shown.First());
        Assert.Equal(renewed, shown.Last());
    }

    [Fact]
    public async Task Testssl_finds_nothing_of_severity_medium_or_worse()
    {
        shared.SkipIfUnavailable();
        var testssl = new[] { "/usr/bin/testssl", "/usr/local/bin/testssl.sh" }.FirstOrDefault(File.Exists);
        if (testssl is null)
        {
            Unavailable.SkipOrFail("testssl.sh is not installed (apt-get install testssl.sh; ./slots test installs it).");
        }
        var ct = TestContext.Current.CancellationToken;
        await using var haproxy = await StackProcesses.StartHaproxyAsync(shared.Apis, new Dictionary<string, string>(), "testssl", ct);
        var json = Path.Combine(StackProcesses.LogFolder, $"testssl-{Guid.NewGuid():N}.json");

        // The checks that judge a TLS edge, not the whole catalogue (each cipher one by one, every client
        // simulation): protocols, the certificate and server defaults, HTTP headers, the vulnerabilities.
        // Measured on the shared 2-core machine: 203 s alone, 230-447 s inside the stack suite under a load
        // average of 30-40 (it starts an openssl process per probe); the limit leaves room above that.
        var clock = Stopwatch.StartNew();
        var (exit, output) = await RunAsync(testssl,
            ["--quiet", "--color", "0", "--warnings", "off", "--add-ca", haproxy.CaPath, "--jsonfile", json,
             "--protocols", "--server-defaults", "--headers", "--vulnerable", "--fast", $"127.0.0.1:{haproxy.FrontPort}"],
            TimeSpan.FromMinutes(12));
        var took = clock.Elapsed;

        Assert.True(File.Exists(json), $"testssl.sh wrote no {json} (exit {exit}):\n{output}");
        using var findings = JsonDocument.Parse(await File.ReadAllTextAsync(json, ct));
        var all = findings.RootElement.EnumerateArray()
            .Select(f => (Id: f.GetProperty("id").GetString()!, Severity: f.GetProperty("severity").GetString()!, Finding: f.GetProperty("finding").GetString()!))
            .ToArray();
        var serious = all.Where(f => f.Severity is "MEDIUM" or "HIGH" or "CRITICAL" or "FATAL").ToArray();
        Figures.Report($"testssl.sh: {took.TotalSeconds:F0} s, {all.Length} findings ({string.Join(", ", all.GroupBy(f => f.Severity).OrderBy(g => g.Key, StringComparer.Ordinal).Select(g => $"{g.Key} {g.Count()}"))}), exit {exit}");
        Assert.True(serious.Length == 0, "testssl.sh findings of severity MEDIUM or worse:\n" + string.Join('\n', serious.Select(f => $"{f.Severity} {f.Id}: {f.Finding}")));
        // It looked at what matters: a run that checked nothing would pass the line above.
        string Of(string id) => all.Single(f => f.Id == id).Finding;
        Assert.StartsWith("offered", Of("TLS1_3"), StringComparison.Ordinal);
        Assert.StartsWith("offered", Of("TLS1_2"), StringComparison.Ordinal);
        Assert.StartsWith("not offered", Of("TLS1_1"), StringComparison.Ordinal);
        Assert.StartsWith("not offered", Of("TLS1"), StringComparison.Ordinal);
        Assert.Equal("h2", Of("ALPN_HTTP2"));
        Assert.Contains("/slots-local-ca.crl", Of("cert_crlDistributionPoints"), StringComparison.Ordinal);
        Assert.Equal("passed.", Of("cert_chain_of_trust"));
        Assert.Contains("63072000", Of("HSTS_time"), StringComparison.Ordinal);
    }

    /// <summary>The serial number of the certificate a new connection to the front is shown.</summary>
    private static async Task<string> ServedSerialAsync(HaproxyServer haproxy)
    {
        using var tcp = new System.Net.Sockets.TcpClient();
        await tcp.ConnectAsync(IPAddress.Loopback, haproxy.FrontPort);
        await using var tls = new SslStream(tcp.GetStream());
        await tls.AuthenticateAsClientAsync(new SslClientAuthenticationOptions
        {
            TargetHost = "127.0.0.1",
            CertificateChainPolicy = HaproxyServer.ChainPolicy(haproxy.Ca),
        });
        return Serial(tls.RemoteCertificate!.GetSerialNumberString());
    }

    /// <summary>A serial number as hex digits without leading zeros: .NET keeps DER's leading zero byte of a serial whose top bit is set, openssl does not.</summary>
    private static string Serial(string hex) => hex.Trim().TrimStart('0');

    private static string CrlDistributionPoint(X509Certificate2 certificate) =>
        certificate.Extensions.Single(e => e.Oid?.Value == "2.5.29.31").Format(multiLine: false);

    private static async Task WaitAsync(Func<bool> condition, string what) => await WaitAsync(() => Task.FromResult(condition()), what);

    private static async Task WaitAsync(Func<Task<bool>> condition, string what)
    {
        var clock = Stopwatch.StartNew();
        while (!await condition())
        {
            if (clock.Elapsed > TimeSpan.FromSeconds(30))
            {
                throw new TimeoutException($"Waited 30 s for {what}.");
            }
            await Task.Delay(50);
        }
    }

    /// <summary>testssl.sh's exit code counts what it found, so it is read, not treated as a failure; the JSON is the verdict.</summary>
    private static async Task<(int Exit, string Output)> RunAsync(string file, IReadOnlyList<string> arguments, TimeSpan limit)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(limit);
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"testssl.sh took longer than {limit.TotalMinutes} minutes:\n{await output}{await errors}");
        }
        return (process.ExitCode, await output + await errors);
    }
}
