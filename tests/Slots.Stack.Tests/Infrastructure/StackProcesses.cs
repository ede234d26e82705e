using Slots.Testing;

namespace Slots.Stack.Tests.Infrastructure;

/// <summary>Starts API instances against a database and HAProxy in front of them, as `./slots stack up` does.</summary>
public static class StackProcesses
{
    public const string AdminKey = "stack-admin-key-000000";

    /// <summary>A folder for this run's process logs; left in temp so a failure can be read afterwards.</summary>
    public static string LogFolder { get; } = Directory.CreateTempSubdirectory("slots-stack-tests-").FullName;

    public const string NoHaproxy = "haproxy is not installed (apt-get install haproxy; ./slots test installs it).";

    /// <summary>The run's shared server, or the test skipped (under CI failed) with the reason it cannot start.</summary>
    public static Task<PostgresServer> SharedPostgresOrSkipAsync() => Unavailable.SkipOrFailAsync(PostgresServer.SharedAsync);

    public static void SkipWithoutHaproxy()
    {
        if (HaproxyServer.Binary() is null)
        {
            Unavailable.SkipOrFail(NoHaproxy);
        }
    }

    /// <summary>The configuration every instance gets: PostgreSQL, HAProxy on loopback trusted for X-Forwarded-For.</summary>
    public static Dictionary<string, string> ApiSettings(string connectionString) => new()
    {
        ["Slots:Storage:Provider"] = "Postgres",
        ["ConnectionStrings:Slots"] = connectionString,
        ["Slots:Persons:HmacSecret"] = "stack-tests-secret-of-enough-length",
        ["Slots:Invitations:HmacSecret"] = "stack-tests-invitation-key-of-enough-length",
        ["Slots:Admin:Keys:tests:Key"] = AdminKey,
        ["Slots:Admin:Keys:tests:Role"] = "admin",
        ["Slots:DemoData:WhenEmpty"] = "false",
        ["Slots:TrustedProxies:0"] = "127.0.0.1",
        // HAProxy's limits are what these tests exercise; the API's own limiter has tests in Slots.Api.Tests.
        ["Slots:RateLimits:WritesPerWindow"] = "100000",
        ["Slots:RateLimits:ReadsPerWindow"] = "100000",
        ["Logging:LogLevel:Default"] = "Warning",
    };

    /// <summary>Starts <paramref name="count"/> instances at once (the migrator's advisory lock lets one migrate).</summary>
    public static async Task<ApiProcess[]> StartApisAsync(string connectionString, int count, string name, CancellationToken ct)
    {
        var settings = ApiSettings(connectionString);
        var starting = Enumerable.Range(1, count).Select(i => ApiProcess.StartAsync(settings, LogFolder, $"{name}-api{i}", ct)).ToArray();
        try
        {
            return await Task.WhenAll(starting);
        }
        catch
        {
            foreach (var started in starting.Where(t => t.IsCompletedSuccessfully))
            {
                await started.Result.DisposeAsync();
            }
            throw;
        }
    }

    public static Task<HaproxyServer> StartHaproxyAsync(IEnumerable<ApiProcess> apis, IReadOnlyDictionary<string, string> settings, string name, CancellationToken ct) =>
        StartHaproxyAsync(apis.Select(a => a.Address).ToArray(), settings, name, ct);

    /// <summary>HAProxy in front of the servers at these host:port addresses (API instances, or a test's own upstream).</summary>
    public static Task<HaproxyServer> StartHaproxyAsync(IReadOnlyList<string> servers, IReadOnlyDictionary<string, string> settings, string name, CancellationToken ct)
    {
        var folder = Path.Combine(LogFolder, name);
        Directory.CreateDirectory(folder);
        TestContext.Current.TestOutputHelper?.WriteLine($"process logs: {LogFolder} (HAProxy's in {folder})");
        return HaproxyServer.StartAsync(servers, settings, folder, ct);
    }
}

/// <summary>One database on the shared server and two API instances, for the tests that break nothing.</summary>
public sealed class SharedApis : IAsyncLifetime
{
    public string ConnectionString { get; private set; } = "";

    public ApiProcess[] Apis { get; private set; } = [];

    public string? SkipReason { get; private set; }

    public async ValueTask InitializeAsync()
    {
        if (HaproxyServer.Binary() is null)
        {
            SkipReason = StackProcesses.NoHaproxy;
            return;
        }
        PostgresServer server;
        try
        {
            server = await PostgresServer.SharedAsync();
        }
        catch (PostgresUnavailableException ex)
        {
            SkipReason = ex.Message;
            return;
        }
        ConnectionString = await server.CreateDatabaseAsync("stack" + Guid.NewGuid().ToString("N")[..12], CancellationToken.None);
        Apis = await StackProcesses.StartApisAsync(ConnectionString, 2, "shared", CancellationToken.None);
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var api in Apis)
        {
            await api.DisposeAsync();
        }
    }

    public void SkipIfUnavailable()
    {
        if (SkipReason is not null)
        {
            Unavailable.SkipOrFail(SkipReason);
        }
    }
}
