using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text.Json;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;
using Slots.Testing;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Staff;

/// <summary>
/// A newcomer's first sign-in, as issue #39 found it: on a fresh machine `./slots run` starts the
/// API before `./slots staff token` has made the development signing key, and the roster answered
/// 401 until the API was restarted. The API runs as its own process here, in Development, with a
/// user-secrets folder of its own (APPDATA) that does not exist yet when it starts.
/// </summary>
public sealed class NewcomerSignInTests : IAsyncDisposable
{
    private const string AdminKey = "newcomer-admin-key-000";
    private readonly DirectoryInfo _folder = Directory.CreateTempSubdirectory("slots-newcomer-");

    [Fact]
    public async Task A_development_key_made_after_the_start_signs_tokens_without_a_restart()
    {
        var ct = TestContext.Current.CancellationToken;
        var appData = Path.Combine(_folder.FullName, "appdata");
        await using var api = await ApiProcess.StartAsync(Settings(appData, new()
        {
            ["Authentication:Schemes:Bearer:ValidIssuer"] = "dotnet-user-jwts",
            ["Authentication:Schemes:Bearer:ValidAudiences:0"] = "slots-api",
        }), _folder.FullName, "newcomer", ct);
        using var admin = new HttpClient { BaseAddress = api.BaseAddress };
        admin.DefaultRequestHeaders.Add("X-Api-Key", AdminKey);
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);

        var key = RandomNumberGenerator.GetBytes(32);
        await WriteDevelopmentKeyAsync(appData, key, ct);

        using var staff = new HttpClient { BaseAddress = api.BaseAddress };
        staff.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", Token(key, place));
        var roster = await staff.GetAsync($"/api/staff/places/{place}/roster", ct);

        Assert.Equal(HttpStatusCode.OK, roster.StatusCode);
    }

    [Fact]
    public async Task A_development_key_already_in_the_secrets_does_not_shut_out_the_sites_provider()
    {
        // A developer who once ran ./slots staff token, then points Development at a real provider: the
        // development key was the only key tried, and every provider token answered 401.
        var ct = TestContext.Current.CancellationToken;
        var appData = Path.Combine(_folder.FullName, "appdata");
        var key = RandomNumberGenerator.GetBytes(32);
        await WriteDevelopmentKeyAsync(appData, key, ct);
        await using var provider = await OidcTestProvider.StartAsync(ct: ct);
        await using var api = await ApiProcess.StartAsync(Settings(appData, new()
        {
            ["Authentication:Schemes:Bearer:Authority"] = provider.Issuer,
            ["Authentication:Schemes:Bearer:RequireHttpsMetadata"] = "false",
            ["Authentication:Schemes:Bearer:ValidAudiences:0"] = provider.Audience,
        }), _folder.FullName, "provider", ct);
        using var admin = new HttpClient { BaseAddress = api.BaseAddress };
        admin.DefaultRequestHeaders.Add("X-Api-Key", AdminKey);
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);

        using var staff = new HttpClient { BaseAddress = api.BaseAddress };
        staff.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", await provider.TokenAsync("nurse-7", ["site-staff"], [place]));
        var roster = await staff.GetAsync($"/api/staff/places/{place}/roster", ct);

        Assert.Equal(HttpStatusCode.OK, roster.StatusCode);
    }

    /// <summary>The API in Development on its own SQLite file and user-secrets folder, with <paramref name="bearer"/>'s settings.</summary>
    private Dictionary<string, string> Settings(string appData, Dictionary<string, string> bearer)
    {
        var settings = new Dictionary<string, string>
        {
            ["ASPNETCORE_ENVIRONMENT"] = "Development",
            ["APPDATA"] = appData,
            ["Slots:Storage:Provider"] = "Sqlite",
            ["ConnectionStrings:Slots"] = $"Data Source={Path.Combine(_folder.FullName, "slots.db")}",
            ["Slots:DemoData:WhenEmpty"] = "false",
            ["Slots:Persons:HmacSecret"] = "newcomer-test-secret-0000",
            ["Slots:Admin:Keys:tests:Key"] = AdminKey,
            ["Slots:Admin:Keys:tests:Role"] = "admin",
        };
        foreach (var (key, value) in bearer)
        {
            settings[key] = value;
        }
        return settings;
    }

    /// <summary>What `dotnet user-jwts create` writes on its first run (checked against its 10.0 output).</summary>
    private static async Task WriteDevelopmentKeyAsync(string appData, byte[] key, CancellationToken ct)
    {
        var secrets = Path.Combine(appData, "Microsoft", "UserSecrets", "slots-api-development", "secrets.json");
        Directory.CreateDirectory(Path.GetDirectoryName(secrets)!);
        await File.WriteAllTextAsync(secrets, JsonSerializer.Serialize(new Dictionary<string, object>
        {
            ["Authentication:Schemes:Bearer:SigningKeys"] = new[]
            {
                new { Id = "0a1b2c3d", Issuer = "dotnet-user-jwts", Value = Convert.ToBase64String(key), Length = 32 },
            },
        }), ct);
    }

    /// <summary>A token as `dotnet user-jwts create --role site-staff --claim places=N --audience slots-api` makes it.</summary>
    private static string Token(byte[] key, int place) => new JsonWebTokenHandler().CreateToken(new SecurityTokenDescriptor
    {
        Issuer = "dotnet-user-jwts",
        Audience = "slots-api",
        Expires = DateTime.UtcNow.AddHours(1),
        SigningCredentials = new SigningCredentials(new SymmetricSecurityKey(key), SecurityAlgorithms.HmacSha256),
        Claims = new Dictionary<string, object>
        {
            ["sub"] = "newcomer",
            ["role"] = "site-staff",
            ["places"] = place.ToString(System.Globalization.CultureInfo.InvariantCulture),
        },
    });

    public ValueTask DisposeAsync()
    {
        try
        {
            _folder.Delete(recursive: true);
        }
        catch (IOException)
        {
            // a log still open by a process being torn down; the OS temp cleaner takes it
        }
        return ValueTask.CompletedTask;
    }
}
