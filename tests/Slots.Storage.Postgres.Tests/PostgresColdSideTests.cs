using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Npgsql;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Storage.Postgres.Tests;

/// <summary>The EF Core side and the failure mapping on PostgreSQL, through the real host.</summary>
public sealed class PostgresColdSideTests(PostgresBackend backend) : IClassFixture<PostgresBackend>, IAsyncDisposable
{
    private SlotsHost? _host;
    private string? _connectionString;

    public async ValueTask DisposeAsync()
    {
        if (_host is not null)
        {
            await _host.DisposeAsync();
        }
    }

    /// <param name="ctype">When given, the host runs on a database of its own with this LC_CTYPE instead.</param>
    private async Task<(HttpClient Client, HttpClient Admin)> StartAsync(string? ctype = null)
    {
        var settings = await backend.CreateDatabaseAsync("cold" + Guid.NewGuid().ToString("N")[..12], TestContext.Current.CancellationToken);
        _connectionString = settings["ConnectionStrings:Slots"];
        if (ctype is not null)
        {
            _connectionString = await CreateDatabaseAsync(_connectionString!, ctype);
            settings = new Dictionary<string, string?>(settings) { ["ConnectionStrings:Slots"] = _connectionString };
        }
        _host = new SlotsHost(settings);
        return (_host.Client(), _host.AdminClient());
    }

    /// <summary>A database beside the given one, with the libc LC_CTYPE given; returns its connection string.</summary>
    private static async Task<string> CreateDatabaseAsync(string beside, string ctype)
    {
        var database = new NpgsqlConnectionStringBuilder(beside) { Database = "ctype" + Guid.NewGuid().ToString("N")[..12] };
        await using var server = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(beside) { Database = "postgres", Pooling = false }.ConnectionString);
        await server.OpenAsync();
        // The test server's default provider may be ICU (PostgreSQL 15+), which would override LC_CTYPE for lower().
        var libc = server.PostgreSqlVersion.Major >= 15 ? "LOCALE_PROVIDER libc" : "";
        await using var create = new NpgsqlCommand(
            $"CREATE DATABASE \"{database.Database}\" TEMPLATE template0 ENCODING 'UTF8' {libc} LC_COLLATE '{ctype}' LC_CTYPE '{ctype}'", server);
        await create.ExecuteNonQueryAsync();
        return database.ConnectionString;
    }

    [Fact]
    public async Task Place_search_ignores_case_of_non_ascii_letters_and_stats_add_up()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 2, name: "Odberové miesto ŽILINA – Hlavná");
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next()))).StatusCode);

        var found = await client.GetFromJsonAsync<JsonObject>("/api/places?name=%C5%BEilina");
        var regions = await client.GetFromJsonAsync<string[]>("/api/places/regions");
        var stats = await admin.GetFromJsonAsync<JsonObject>($"/api/admin/stats?from={Day(Today)}&to={Day(Today.AddDays(5))}");

        Assert.Equal(place, found!["items"]!.AsArray().Single()!["id"]!.GetValue<int>());
        Assert.Equal(["Bratislavský kraj"], regions!);
        var days = stats!["days"]!.AsArray().Where(d => d!["slots"]!.GetValue<int>() > 0).ToList();
        Assert.Equal(2, days.Count);
        Assert.Equal(6 * 2 * 2, days.Sum(d => d!["seats"]!.GetValue<long>()));
        Assert.Equal(1, days.Sum(d => d!["reservations"]!.GetValue<long>()));
    }

    // PostgreSQL's lower() follows the database's LC_CTYPE: under C it folds only ASCII, as
    // SQLite's does, so 'Č' stayed 'Č' while .NET lower-cased the person's text to 'č'.
    [Fact]
    public async Task A_name_search_finds_non_ascii_capitals_on_a_database_whose_ctype_is_C()
    {
        var (client, admin) = await StartAsync(ctype: "C");
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1, name: "Čakáreň Žilina");

        var exact = await client.GetFromJsonAsync<JsonObject>($"/api/places?name={Uri.EscapeDataString("Čakáreň")}");
        var upper = await client.GetFromJsonAsync<JsonObject>($"/api/places?name={Uri.EscapeDataString("ŽILINA")}");

        Assert.Equal(place, Assert.Single(exact!["items"]!.AsArray())!["id"]!.GetValue<int>());
        Assert.Equal(place, Assert.Single(upper!["items"]!.AsArray())!["id"]!.GetValue<int>());
    }

    [Fact]
    public async Task A_database_that_refuses_connections_is_503_with_Retry_After_and_not_ready()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 2);
        var database = new NpgsqlConnectionStringBuilder(_connectionString).Database!;
        NpgsqlConnection.ClearAllPools();
        await using (var server = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(_connectionString) { Database = "postgres", Pooling = false }.ConnectionString))
        {
            await server.OpenAsync();
            await using var refuse = new NpgsqlCommand(
                $"ALTER DATABASE \"{database}\" ALLOW_CONNECTIONS false; SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{database}'", server);
            await refuse.ExecuteNonQueryAsync();
        }

        var reserve = await client.SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next()));
        var ready = await client.GetAsync("/health/ready");

        Assert.Equal(HttpStatusCode.ServiceUnavailable, reserve.StatusCode);
        Assert.NotNull(reserve.Headers.RetryAfter);
        Assert.Equal("database-unavailable", await ProblemCodeAsync(reserve));
        Assert.Equal(HttpStatusCode.ServiceUnavailable, ready.StatusCode);
    }
}
