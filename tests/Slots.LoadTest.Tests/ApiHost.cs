using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Data.Sqlite;

namespace Slots.LoadTest.Tests;

/// <summary>The real API host on a loopback Kestrel port, on a SQLite file of its own, with the benchmark endpoints mapped.</summary>
public sealed class ApiHost : WebApplicationFactory<global::Program>
{
    private readonly string _folder = Directory.CreateTempSubdirectory("slots-loadtest-").FullName;
    private readonly Dictionary<string, string?> _settings;

    /// <param name="settings">More configuration, over the defaults (e.g. a staff key).</param>
    public ApiHost(int writesPerWindow = 100_000, bool benchmark = true, IReadOnlyDictionary<string, string?>? settings = null)
    {
        DatabasePath = Path.Combine(_folder, "slots.db");
        _settings = new Dictionary<string, string?>
        {
            ["Slots:Storage:Provider"] = "Sqlite",
            ["ConnectionStrings:Slots"] = $"Data Source={DatabasePath}",
            ["Slots:Persons:HmacSecret"] = "loadtest-secret-of-enough-length",
            ["Slots:DemoData:WhenEmpty"] = "false",
            ["Slots:Benchmark:Baseline"] = benchmark ? "true" : "false",
            ["Slots:RateLimits:WritesPerWindow"] = writesPerWindow.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["Slots:RateLimits:ReadsPerWindow"] = "100000",
            ["Slots:RateLimits:Window"] = "00:00:02",
        };
        foreach (var (key, value) in settings ?? new Dictionary<string, string?>())
        {
            _settings[key] = value;
        }
        UseKestrel(0);
    }

    public string DatabasePath { get; }

    /// <summary>The host's own folder, removed with it.</summary>
    public string Folder => _folder;

    public string ConnectionString => $"Data Source={DatabasePath}";

    /// <summary>Starts the host (schema migrated before it listens) and answers its base address.</summary>
    public Uri Start()
    {
        StartServer();
        using var client = CreateClient();
        return client.BaseAddress!;
    }

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseEnvironment("Testing");
        foreach (var (key, value) in _settings)
        {
            builder.UseSetting(key, value);
        }
    }

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        SqliteConnection.ClearAllPools();
        try
        {
            Directory.Delete(_folder, recursive: true);
        }
        catch (IOException)
        {
            // a file still open while the host winds down; the temp cleaner takes it
        }
        GC.SuppressFinalize(this);
    }
}
