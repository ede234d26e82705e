using System.Net.Http.Json;
using System.Text;
using System.Text.Json.Nodes;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Bench;

/// <summary>The admin writes the benchmark makes between its runs, through the API as an admin makes them.</summary>
internal sealed class BenchAdmin(SystemUnderTest system) : IDisposable
{
    private readonly HttpClient _http = Client();

    /// <summary>
    /// An invitation batch of <paramref name="size"/> for the default service, its CSV kept at <paramref name="path"/>:
    /// issued before the crowd as a campaign issues them before its opening, so the crowd measures checking and spending
    /// a code rather than fresh rows settling.
    /// </summary>
    public async Task InvitationsAsync(int size, string path, CancellationToken ct)
    {
        using var answer = await _http.PostAsJsonAsync(new Uri($"{system.FirstUrl}/api/admin/services/default/invitations"), new { label = "benchmark", size }, ct);
        answer.EnsureSuccessStatusCode();
        await File.WriteAllBytesAsync(path, await answer.Content.ReadAsByteArrayAsync(ct), ct);
    }

    /// <summary>The default service's rule of who may book (the seeded places offer only it).</summary>
    public async Task WhoMayBookAsync(string rule, CancellationToken ct)
    {
        using var body = new StringContent(rule, Encoding.UTF8, "application/json");
        using var answer = await _http.PutAsync(new Uri($"{system.FirstUrl}/api/admin/services/default/eligibility"), body, ct);
        answer.EnsureSuccessStatusCode();
    }

    /// <summary>
    /// The default service's second dose (<c>{"minDays":…,"maxDays":…}</c>, or null for one appointment), through every
    /// instance: each keeps a copy of the catalogue that its own admin writes refresh at once. Behind a proxy the instances
    /// are not each reachable, so the copies get their 30 s.
    /// </summary>
    public async Task DosesAsync(string interval, CancellationToken ct)
    {
        foreach (var url in system.AdminUrls)
        {
            using var body = new StringContent($$"""{"nameSk":"Očkovanie","nameEn":"Vaccination","secondDose":{{interval}},"active":true}""", Encoding.UTF8, "application/json");
            using var answer = await _http.PutAsync(new Uri($"{url}/api/admin/services/default"), body, ct);
            answer.EnsureSuccessStatusCode();
        }
        if (system.BehindProxy)
        {
            await Task.Delay(TimeSpan.FromSeconds(31), ct);
        }
    }

    /// <summary>Waits (at most 3 minutes) until the first instance's flush has caught up with the hot changes.</summary>
    public async Task FlushedAsync(CancellationToken ct)
    {
        var lag = "?";
        for (var i = 0; i < 360; i++)
        {
            try
            {
                var jobs = await _http.GetFromJsonAsync<JsonObject>(new Uri($"{system.FirstUrl}/api/admin/jobs"), ct);
                lag = jobs?["flushLagSeconds"]?.ToString() ?? "?";
            }
            catch (HttpRequestException)
            {
                lag = "?";
            }
            if (lag == "0")
            {
                return;
            }
            await Task.Delay(500, ct);
        }
        Console.WriteLine($"   (the flush of earlier hot changes has not caught up: lag {lag} s; going on)");
    }

    public void Dispose() => _http.Dispose();

    private static HttpClient Client()
    {
        var http = new HttpClient(new SocketsHttpHandler().TrustingStackCa()) { Timeout = TimeSpan.FromMinutes(2) };
        http.DefaultRequestHeaders.Add("X-Api-Key", BenchSecrets.AdminKey);
        return http;
    }
}
