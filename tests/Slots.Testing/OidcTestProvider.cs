using System.Diagnostics;
using System.Globalization;
using System.Net.Http.Json;
using System.Security.Cryptography;
using System.Text.Json.Nodes;

namespace Slots.Testing;

/// <summary>
/// A real OpenID provider for the staff sign-in tests: tools/oidc-test-provider (oidc-provider from
/// npm, OpenID Certified) in a node process of its own on a loopback port it picks, with a signing
/// key of its own, so a second instance is a foreign issuer. <see cref="TokenAsync"/> gets a JWT
/// access token through the client_credentials grant; the SPA client signs in the configured
/// users with the authorization code flow and PKCE on the provider's login page (type the user
/// name). Stopped on dispose or, failing that, when the test process exits.
/// </summary>
public sealed class OidcTestProvider : IAsyncDisposable
{
    public const string DefaultAudience = "slots-api";

    /// <summary>The public client (no secret, PKCE) a browser signs in through.</summary>
    public const string SpaClientId = "slots-spa";

    // Half a second on an idle machine, 4-5 s with sixteen busy loops on two cores; CI runs the test
    // projects side by side (RabbitMQ clusters, PostgreSQL servers) and once took more than 30 s, so
    // the wait is as long as the other servers' starts get.
    private static readonly TimeSpan ReadyLimit = TimeSpan.FromSeconds(90);
    private static readonly SemaphoreSlim InstallLock = new(1, 1);
    private static bool _installed;

    private readonly ChildProcess _process;
    private readonly string _folder;
    private readonly string _registrationToken;
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(10) };
    // Registering a subject again replaces its client, so registration and the token request go
    // together under this lock: every token carries exactly the claims its caller asked for.
    private readonly SemaphoreSlim _clientsLock = new(1, 1);
    private readonly Dictionary<string, (string Claims, string Secret)> _clients = [];

    private OidcTestProvider(ChildProcess process, string folder, string registrationToken, string issuer, string audience)
    {
        _process = process;
        _folder = folder;
        _registrationToken = registrationToken;
        Issuer = issuer;
        Audience = audience;
    }

    /// <summary>The issuer URL, without a trailing slash (http://127.0.0.1:PORT): the API's authority.</summary>
    public string Issuer { get; }

    /// <summary>The access tokens' aud claim.</summary>
    public string Audience { get; }

    /// <summary>The RFC 8707 resource indicator for <see cref="Audience"/> (an absolute URI); optional in requests, it is the default.</summary>
    public string Resource => $"urn:{Audience}";

    public Uri DiscoveryUri => new($"{Issuer}/.well-known/openid-configuration");

    /// <summary>
    /// Installs the provider's npm packages when missing (once per process), starts it and waits
    /// for its ready line. <paramref name="users"/> can sign in on the login page, their user name
    /// being their subject; <paramref name="spaRedirectUris"/> are where the SPA client may be sent
    /// back (none: no SPA client).
    /// </summary>
    public static async Task<OidcTestProvider> StartAsync(
        IReadOnlyList<StaffMember>? users = null,
        IReadOnlyList<Uri>? spaRedirectUris = null,
        string audience = DefaultAudience,
        CancellationToken ct = default)
    {
        var providerFolder = Path.Combine(Repository.Root, "tools", "oidc-test-provider");
        try
        {
            await InstallAsync(providerFolder, ct);
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            throw new InvalidOperationException($"The OIDC test provider needs Node.js 20.19+ and npm on PATH: {ex.Message}", ex);
        }
        var folder = Directory.CreateTempSubdirectory("slots-oidc-").FullName;
        var config = Path.Combine(folder, "provider.json");
        await File.WriteAllTextAsync(config, Configuration(users ?? [], spaRedirectUris ?? [], audience).ToJsonString(), ct);
        var registrationToken = RandomNumberGenerator.GetHexString(32, lowercase: true);
        var process = ChildProcess.Start(
            "node",
            [Path.Combine(providerFolder, "provider.mjs"), "--port", "0", "--config", config],
            new Dictionary<string, string> { ["OIDC_REGISTRATION_TOKEN"] = registrationToken },
            Path.Combine(folder, "provider.log"));
        try
        {
            var issuer = await ReadyAsync(process, ct);
            return new OidcTestProvider(process, folder, registrationToken, issuer, audience);
        }
        catch
        {
            await process.DisposeAsync();
            throw;
        }
    }

    /// <summary>
    /// A JWT access token for <paramref name="subject"/> (its sub) with the role and places claims
    /// asked for, from the client_credentials grant of a client registered for that staff member;
    /// <paramref name="lifetime"/> (whole seconds, at least one) sets its exp, default 10 minutes.
    /// </summary>
    public async Task<string> TokenAsync(string subject, IReadOnlyList<string> roles, IReadOnlyList<int> places, TimeSpan? lifetime = null)
    {
        var ttl = lifetime is { } asked ? Math.Max(1, (int)Math.Ceiling(asked.TotalSeconds)) : (int?)null;
        var claims = $"{string.Join(' ', roles)}|{string.Join(' ', places)}|{ttl}";
        await _clientsLock.WaitAsync();
        try
        {
            if (!_clients.TryGetValue(subject, out var client) || client.Claims != claims)
            {
                client = (claims, await RegisterAsync(subject, roles, places, ttl));
                _clients[subject] = client;
            }
            using var response = await _http.PostAsync(new Uri($"{Issuer}/token"), new FormUrlEncodedContent(new Dictionary<string, string>
            {
                ["grant_type"] = "client_credentials",
                ["client_id"] = subject,
                ["client_secret"] = client.Secret,
                ["scope"] = "staff",
                ["resource"] = Resource,
            }));
            var body = await response.Content.ReadFromJsonAsync<JsonObject>();
            return response.IsSuccessStatusCode && body?["access_token"]?.GetValue<string>() is { } token
                ? token
                : throw new InvalidOperationException($"The token request failed with {(int)response.StatusCode}: {body}");
        }
        finally
        {
            _clientsLock.Release();
        }
    }

    /// <summary>The provider's output (its warnings and errors), for an assertion message.</summary>
    public string LogTail() => _process.Tail();

    public async ValueTask DisposeAsync()
    {
        _http.Dispose();
        await _process.DisposeAsync();
        try
        {
            Directory.Delete(_folder, recursive: true);
        }
        catch (IOException)
        {
        }
    }

    private async Task<string> RegisterAsync(string subject, IReadOnlyList<string> roles, IReadOnlyList<int> places, int? ttl)
    {
        var metadata = new JsonObject
        {
            ["staff_sub"] = subject,
            ["staff_roles"] = new JsonArray([.. roles.Select(r => JsonValue.Create(r))]),
            ["staff_places"] = PlaceIds(places),
            ["grant_types"] = new JsonArray("client_credentials"),
            ["response_types"] = new JsonArray(),
            ["redirect_uris"] = new JsonArray(),
            ["token_endpoint_auth_method"] = "client_secret_post",
        };
        if (ttl is not null)
        {
            metadata["access_token_ttl"] = ttl;
        }
        using var request = new HttpRequestMessage(HttpMethod.Post, $"{Issuer}/reg") { Content = JsonContent.Create(metadata) };
        request.Headers.Authorization = new("Bearer", _registrationToken);
        using var response = await _http.SendAsync(request);
        var body = await response.Content.ReadFromJsonAsync<JsonObject>();
        return response.IsSuccessStatusCode && body?["client_secret"]?.GetValue<string>() is { } secret
            ? secret
            : throw new InvalidOperationException($"Registering a client for a staff member failed with {(int)response.StatusCode}: {body?["error_description"]}");
    }

    /// <summary>The provider's users and clients file (tools/oidc-test-provider/README.md).</summary>
    private static JsonObject Configuration(IReadOnlyList<StaffMember> users, IReadOnlyList<Uri> spaRedirectUris, string audience)
    {
        var clients = new JsonArray();
        if (spaRedirectUris.Count > 0)
        {
            clients.Add(new JsonObject
            {
                ["client_id"] = SpaClientId,
                ["token_endpoint_auth_method"] = "none",
                ["grant_types"] = new JsonArray("authorization_code"),
                ["response_types"] = new JsonArray("code"),
                ["redirect_uris"] = new JsonArray([.. spaRedirectUris.Select(u => JsonValue.Create(u.ToString()))]),
            });
        }
        return new JsonObject
        {
            ["audience"] = audience,
            ["users"] = new JsonArray([.. users.Select(u => new JsonObject
            {
                ["sub"] = u.Subject,
                ["roles"] = new JsonArray([.. u.Roles.Select(r => JsonValue.Create(r))]),
                ["places"] = PlaceIds(u.Places),
            })]),
            ["clients"] = clients,
        };
    }

    private static JsonArray PlaceIds(IReadOnlyList<int> places) =>
        new([.. places.Select(p => JsonValue.Create(p.ToString(CultureInfo.InvariantCulture)))]);

    /// <summary>Installs the npm packages once per process; across processes under a lock file, as npm ci empties node_modules first.</summary>
    private static async Task InstallAsync(string providerFolder, CancellationToken ct)
    {
        await InstallLock.WaitAsync(ct);
        try
        {
            if (_installed)
            {
                return;
            }
            using var crossProcess = await LockFileAsync(Path.Combine(Path.GetTempPath(), "slots-oidc-test-provider-npm.lock"), ct);
            if (!File.Exists(Path.Combine(providerFolder, "node_modules", "oidc-provider", "package.json")))
            {
                await Tool.RunAsync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], TimeSpan.FromMinutes(3),
                    start => start.WorkingDirectory = providerFolder);
            }
            _installed = true;
        }
        finally
        {
            InstallLock.Release();
        }
    }

    private static async Task<FileStream> LockFileAsync(string path, CancellationToken ct)
    {
        var waited = Stopwatch.StartNew();
        while (true)
        {
            try
            {
                return new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
            }
            catch (IOException) when (waited.Elapsed < TimeSpan.FromMinutes(4))
            {
                await Task.Delay(200, ct);
            }
        }
    }

    /// <summary>Waits for "listening ISSUER" in the provider's output; its log explains a failure.</summary>
    private static async Task<string> ReadyAsync(ChildProcess process, CancellationToken ct)
    {
        var waited = Stopwatch.StartNew();
        while (true)
        {
            var ready = ReadLog(process.LogPath).Split('\n').FirstOrDefault(l => l.StartsWith("listening ", StringComparison.Ordinal));
            if (ready is not null)
            {
                return ready["listening ".Length..].Trim();
            }
            if (process.HasExited)
            {
                throw new InvalidOperationException($"The OIDC test provider exited before it was ready:\n{process.Tail()}");
            }
            if (waited.Elapsed > ReadyLimit)
            {
                throw new TimeoutException($"The OIDC test provider was not ready within {ReadyLimit.TotalSeconds} s:\n{process.Tail()}");
            }
            await Task.Delay(25, ct);
        }
    }

    private static string ReadLog(string path)
    {
        using var reader = new StreamReader(new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite));
        return reader.ReadToEnd();
    }
}

/// <summary>A staff member as the provider knows them: subject, roles (site-staff, site-manager, admin) and place ids.</summary>
public sealed record StaffMember(string Subject, IReadOnlyList<string> Roles, IReadOnlyList<int> Places);
