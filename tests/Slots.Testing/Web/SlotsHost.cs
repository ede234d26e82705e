using System.Runtime.ExceptionServices;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Slots.Testing.Web;

/// <summary>The real API host on a loopback port (Kestrel, not the in-memory test server).</summary>
public sealed class SlotsHost : WebApplicationFactory<Program>
{
    public const string AdminKey = "test-admin-key-0000000";
    public const string ViewerKey = "test-viewer-key-000000";

    private readonly IReadOnlyDictionary<string, string?> _settings;
    private readonly Action<IServiceCollection>? _services;
    private readonly StartFailureLog _startFailure = new();

    public SlotsHost(IReadOnlyDictionary<string, string?> backend, IReadOnlyDictionary<string, string?>? extra = null, Action<IServiceCollection>? services = null)
    {
        var settings = new Dictionary<string, string?>
        {
            ["Slots:Persons:HmacSecret"] = "test-secret-of-enough-length",
            ["Slots:Invitations:HmacSecret"] = "test-invitation-key-of-enough-length",
            ["Slots:Admin:Keys:tests:Key"] = AdminKey,
            ["Slots:Admin:Keys:tests:Role"] = "admin",
            ["Slots:Admin:Keys:board:Key"] = ViewerKey,
            ["Slots:Admin:Keys:board:Role"] = "viewer",
            ["Slots:DemoData:WhenEmpty"] = "false",
            // Tests fire hundreds of requests from one address; the limiter has tests of its own.
            ["Slots:RateLimits:WritesPerWindow"] = "100000",
            ["Slots:RateLimits:ReadsPerWindow"] = "100000",
            // The races of the contract suites (200 racers, 50 repeats of one key) test the stores, not
            // admission: the adaptive limit has tests of its own (Capacity/).
            ["Slots:ConcurrencyLimit:MinLimit"] = "100000",
            ["Slots:ConcurrencyLimit:InitialLimit"] = "100000",
            ["Slots:ConcurrencyLimit:MaxLimit"] = "100000",
        };
        foreach (var (key, value) in backend)
        {
            settings[key] = value;
        }
        foreach (var (key, value) in extra ?? new Dictionary<string, string?>())
        {
            settings[key] = value;
        }
        _settings = settings;
        _services = services;
        UseKestrel(0);
    }

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseEnvironment(Environment);
        // The entry point starts the host on its own thread: its address is set before the build, not after it.
        builder.UseSetting(WebHostDefaults.ServerUrlsKey, "http://127.0.0.1:0");
        foreach (var (key, value) in _settings)
        {
            builder.UseSetting(key, value);
        }
        if (_services is not null)
        {
            builder.ConfigureTestServices(_services);
        }
        builder.ConfigureLogging(logging => logging.AddProvider(_startFailure));
    }

    // The factory's own start after the build, without its port set-up: the address is in the settings already.
    protected override IHost CreateHost(IHostBuilder builder)
    {
        var host = builder.Build();
        Thread.Sleep(PauseBeforeStart);
        host.Start();
        return host;
    }

    /// <summary>
    /// A wait between the build and this factory's start, while the API's own entry point already runs the host: the
    /// test of a refused start widens the window of that race with it.
    /// </summary>
    public TimeSpan PauseBeforeStart { get; init; }

    /// <summary>The host's environment: Testing unless a test needs Production's refusals named as such.</summary>
    public string Environment { get; init; } = "Testing";

    public HttpClient Client()
    {
        try
        {
            StartServer();
        }
        catch (ObjectDisposedException) when (_startFailure.Failure is { } refusal)
        {
            // The entry point's run failed first and disposed the host: what the test sees is why it failed.
            ExceptionDispatchInfo.Throw(refusal);
        }
        var client = CreateClient();
        client.Timeout = TimeSpan.FromSeconds(60);
        return client;
    }

    public HttpClient AdminClient()
    {
        var client = Client();
        client.DefaultRequestHeaders.Add("X-Api-Key", AdminKey);
        return client;
    }

    public HttpClient ViewerClient()
    {
        var client = Client();
        client.DefaultRequestHeaders.Add("X-Api-Key", ViewerKey);
        return client;
    }
}
