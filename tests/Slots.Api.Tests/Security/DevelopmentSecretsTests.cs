using System.Net;
using Slots.Testing.Web;

namespace Slots.Api.Tests.Security;

/// <summary>
/// Secrets out of the tree (#39): a start outside Development with a value this repository ships
/// (or a usual placeholder) is refused, naming the setting and never its value; secrets can come
/// from files, one per key, as Docker and Kubernetes mount them.
/// </summary>
public sealed class DevelopmentSecretsTests : IAsyncDisposable
{
    private const string AdmissionKey = "tests-waiting-room-signing-key-0123456789";
    private readonly SqliteBackend _backend = new();
    private readonly DirectoryInfo _secrets = Directory.CreateTempSubdirectory("slots-secrets-");

    public static TheoryData<string, string, string> DevelopmentValues() => new()
    {
        // setting, its development value, the name the refusal must give
        { "Slots:Persons:HmacSecret", "development-only-secret-do-not-use-in-production", "Slots:Persons:HmacSecret" },
        { "Slots:Persons:PreviousHmacSecret", "development-only-secret-do-not-use-in-production", "Slots:Persons:PreviousHmacSecret" },
        { "Slots:WaitingRoom:SigningKey", "development-only-waiting-room-key-do-not-use", "Slots:WaitingRoom:SigningKey" },
        { "Slots:Invitations:HmacSecret", "development-only-invitation-key-do-not-use", "Slots:Invitations:HmacSecret" },
        { "Slots:Admin:Keys:tests:Key", "dev-admin-key-0000", "Slots:Admin:Keys:tests:Key" },
        { "Slots:Admin:Keys:board:Key", "dev-viewer-key-0000", "Slots:Admin:Keys:board:Key" },
        // A development key given as its hash is the same key.
        { "Slots:Admin:Keys:ops:Hash", Slots.MachineKeys.MachineKeySecrets.Hash("dev-admin-key-0000"), "Slots:Admin:Keys:ops:Hash" },
        { "Slots:Sms:Http:Password", "changeme", "Slots:Sms:Http:Password" },
        { "ConnectionStrings:Slots", "Server=db,1433;Database=slots;User Id=sa;Password=Your_str0ng_pass", "ConnectionStrings:Slots" },
        { "ConnectionStrings:RabbitMq", "amqp://slots:slots@rabbitmq:5672/", "ConnectionStrings:RabbitMq" },
        { "Authentication:Schemes:Bearer:SigningKeys:0:Issuer", "dotnet-user-jwts", "Authentication:Schemes:Bearer:SigningKeys" },
    };

    [Theory]
    [MemberData(nameof(DevelopmentValues))]
    public async Task A_production_start_with_a_development_secret_is_refused_naming_the_setting(string key, string value, string named)
    {
        var settings = (await _backend.CreateDatabaseAsync("refused", TestContext.Current.CancellationToken))!;
        await using var host = new SlotsHost(settings, new Dictionary<string, string?>
        {
            [key] = value,
            ["Authentication:Schemes:Bearer:SigningKeys:0:Value"] = Convert.ToBase64String(new byte[32]),
            ["Slots:Persons:PreviousUntil"] = "2030-01-01T00:00:00Z",
        })
        { Environment = "Production" };

        var refused = Assert.ThrowsAny<Exception>(() => host.Client());

        var message = (refused.InnerException ?? refused).Message;
        Assert.Contains(named, message, StringComparison.Ordinal);
        Assert.Contains("Production", message, StringComparison.Ordinal);
        if (!key.EndsWith(":Issuer", StringComparison.Ordinal))
        {
            Assert.DoesNotContain(value.Split('=').Last(), message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task The_broker_s_guest_user_on_loopback_is_no_development_secret()
    {
        var settings = (await _backend.CreateDatabaseAsync("guest", TestContext.Current.CancellationToken))!;
        await using var host = new SlotsHost(settings, new Dictionary<string, string?>
        {
            // RabbitMQ admits guest only from loopback: the stack and the load tests run that way in Production.
            ["ConnectionStrings:RabbitMq"] = "amqp://guest:guest@127.0.0.1:1/",
            ["Slots:Sms:Transport"] = "Direct",
            ["Slots:WaitingRoom:SigningKey"] = AdmissionKey,
        })
        { Environment = "Production" };

        Assert.Equal(HttpStatusCode.OK, (await host.Client().GetAsync("/health/live")).StatusCode);
    }

    [Fact]
    public async Task Secrets_are_read_from_files_one_per_key()
    {
        await File.WriteAllTextAsync(Path.Combine(_secrets.FullName, "Slots__Admin__Keys__filed__Key"), "key-from-a-secret-file-0001\n");
        await File.WriteAllTextAsync(Path.Combine(_secrets.FullName, "Slots__Admin__Keys__filed__Role"), "admin");
        var settings = (await _backend.CreateDatabaseAsync("files", TestContext.Current.CancellationToken))!;
        await using var host = new SlotsHost(settings, new Dictionary<string, string?>
        {
            ["SLOTS_SECRETS_DIR"] = _secrets.FullName,
            ["Slots:WaitingRoom:SigningKey"] = AdmissionKey,
        })
        { Environment = "Production" };
        var client = host.Client();

        using var request = new HttpRequestMessage(HttpMethod.Get, "/api/admin/stats") { Headers = { { "X-Api-Key", "key-from-a-secret-file-0001" } } };
        var stats = await client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, stats.StatusCode);
    }

    [Fact]
    public async Task A_development_secret_in_a_file_is_refused_too()
    {
        await File.WriteAllTextAsync(Path.Combine(_secrets.FullName, "Slots__Persons__HmacSecret"), "development-only-secret-do-not-use-in-production");
        var settings = (await _backend.CreateDatabaseAsync("filed", TestContext.Current.CancellationToken))!;
        await using var host = new SlotsHost(settings, new Dictionary<string, string?>
        {
            ["SLOTS_SECRETS_DIR"] = _secrets.FullName,
            ["Slots:WaitingRoom:SigningKey"] = AdmissionKey,
        })
        { Environment = "Production" };

        var refused = Assert.ThrowsAny<Exception>(() => host.Client());

        Assert.Contains("Slots:Persons:HmacSecret", (refused.InnerException ?? refused).Message, StringComparison.Ordinal);
    }

    public async ValueTask DisposeAsync()
    {
        await _backend.DisposeAsync();
        _secrets.Delete(recursive: true);
    }
}
