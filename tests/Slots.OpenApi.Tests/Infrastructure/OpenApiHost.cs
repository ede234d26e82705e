using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;

namespace Slots.OpenApi.Tests.Infrastructure;

/// <summary>
/// The real API host on a loopback port (Kestrel), on a fresh SQLite file filled with demo data at
/// start, with a staff admin key so the admin operations can be exercised too, and a token signing
/// key (<see cref="Tokens"/>) so the staff operations can be called as a person.
/// </summary>
public sealed class OpenApiHost : WebApplicationFactory<Program>
{
    public const string AdminKey = "contract-admin-key-000";

    private readonly string _folder = Directory.CreateTempSubdirectory("slots-contract-").FullName;

    public OpenApiHost() => UseKestrel(0);

    /// <summary>Staff tokens the host accepts as from its OpenID provider.</summary>
    public Slots.Testing.Web.StaffTokens Tokens { get; } = new();

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseEnvironment("Testing");
        builder.UseSetting("Slots:Storage:Provider", "Sqlite");
        builder.UseSetting("ConnectionStrings:Slots", $"Data Source={Path.Combine(_folder, "contract.db")}");
        builder.UseSetting("Slots:Persons:HmacSecret", "contract-secret-of-enough-length");
        builder.UseSetting("Slots:Admin:Keys:contract:Key", AdminKey);
        builder.UseSetting("Slots:Admin:Keys:contract:Role", "admin");
        builder.UseSetting("Slots:DemoData:WhenEmpty", "true");
        foreach (var (key, value) in Tokens.Settings)
        {
            builder.UseSetting(key, value);
        }
        // Generated requests come from one address by the hundred; the limiter has tests of its own.
        builder.UseSetting("Slots:RateLimits:WritesPerWindow", "100000");
        builder.UseSetting("Slots:RateLimits:ReadsPerWindow", "100000");
    }

    /// <summary>A client on the loopback port, with no default headers: what a request carries comes from the document.</summary>
    public HttpClient Client(params DelegatingHandler[] handlers)
    {
        StartServer();
        var client = CreateDefaultClient(handlers);
        client.Timeout = TimeSpan.FromSeconds(60);
        return client;
    }

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        try
        {
            Directory.Delete(_folder, recursive: true);
        }
        catch (IOException)
        {
            // a file still open by the host being torn down; the OS temp cleaner takes it
        }
    }
}
