using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Slots.Api.Tests.Staff;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Security;

/// <summary>
/// The authorization matrix (#39), driven by the OpenAPI document the API serves: every operation
/// that declares security is called with no credential, an expired token, an unknown, a revoked and
/// an expired machine key (401), every role it does not list (403), a token for another place where
/// its path has one (403), and every role it lists on each scheme it declares (neither 401 nor 403);
/// a scheme it does not declare gets nowhere. An operation that declares none answers a caller
/// without credentials as it documents, never with the staff problems. Where the document and the
/// server disagree, the failure names the operation and the call.
/// </summary>
public sealed class AuthorizationMatrixTests : IAsyncDisposable
{
    /// <summary>Every role a person's token can carry; the site roles hold only at the token's places.</summary>
    private static readonly string[] PersonRoles = ["viewer", "site-staff", "site-manager", "admin"];
    private static readonly string[] SiteRoles = ["site-staff", "site-manager"];
    private static readonly string[] KeyRoles = ["admin", "viewer"];
    private static readonly string[] StaffProblems = ["unauthenticated", "forbidden", "place-forbidden"];

    private readonly StaffTokens _tokens = new();
    private readonly SqliteBackend _backend = new();
    private SlotsHost? _host;
    private HttpClient? _client;

    public async ValueTask DisposeAsync()
    {
        _client?.Dispose();
        if (_host is not null)
        {
            await _host.DisposeAsync();
        }
        await _backend.DisposeAsync();
    }

    [Fact]
    public async Task Every_operation_answers_each_credential_as_its_declared_security_states()
    {
        var ct = TestContext.Current.CancellationToken;
        _host = new SlotsHost(await _backend.CreateDatabaseAsync("matrix", ct), _tokens.Settings);
        var admin = _host.AdminClient();
        _client = _host.Client();
        var document = JsonNode.Parse(await _host.Client().GetStringAsync("/openapi/v1.json", ct))!;
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var otherPlace = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var keys = new Dictionary<string, string>();
        var revoked = new Dictionary<string, string>();
        var expired = new Dictionary<string, string>();
        foreach (var role in KeyRoles)
        {
            keys[role] = (await MakeKeyAsync(admin, role, TimeSpan.FromDays(1)))["key"]!.GetValue<string>();
            var gone = await MakeKeyAsync(admin, role, TimeSpan.FromDays(1));
            Assert.Equal(HttpStatusCode.NoContent, (await admin.DeleteAsync($"/api/admin/keys/{gone["id"]}", ct)).StatusCode);
            revoked[role] = gone["key"]!.GetValue<string>();
            expired[role] = (await MakeKeyAsync(admin, role, TimeSpan.FromSeconds(2)))["key"]!.GetValue<string>();
        }
        await Task.Delay(TimeSpan.FromSeconds(2.5), ct);

        var operations = document["paths"]!.AsObject()
            .SelectMany(path => path.Value!.AsObject().Select(op => new Operation(op.Key.ToUpperInvariant(), path.Key, op.Value!)))
            .ToList();
        var failures = new List<string>();
        var secured = 0;
        foreach (var operation in operations)
        {
            var url = Url(operation.Path, place);
            var security = operation.Node["security"]!.AsArray()
                .SelectMany(r => r!.AsObject().Select(s => (Scheme: s.Key, Roles: s.Value!.AsArray().Select(x => x!.GetValue<string>()).ToList())))
                .ToDictionary(s => s.Scheme, s => s.Roles);
            if (security.Count == 0)
            {
                var answer = await SendAsync(operation, url, null, ct);
                if (answer.Status is 401 or 403 && (StaffProblems.Contains(answer.Code) || !operation.Documents(answer.Status, answer.Code)))
                {
                    failures.Add($"{operation}: declares no security, yet answered {answer.Status} {answer.Code} without credentials");
                }
                continue;
            }
            secured++;
            var bearer = security.GetValueOrDefault("Bearer");
            var apiKey = security.GetValueOrDefault("ApiKey");
            var least = bearer?.FirstOrDefault() ?? "admin";
            var calls = new List<(string Who, Credential? Credential, int? Expected, string? Code)>
            {
                ("no credential", null, 401, "unauthenticated"),
                ("an expired token", Token(_tokens.Expired("late", least, place)), 401, "unauthenticated"),
                ("a foreign token", Token(StaffTokens.Foreign("stranger", least, place)), 401, "unauthenticated"),
                ("an unknown key", Key("slots_not-a-key-of-this-deployment-000000"), 401, "unauthenticated"),
            };
            foreach (var role in KeyRoles)
            {
                calls.Add(($"a revoked {role} key", Key(revoked[role]), 401, "unauthenticated"));
                calls.Add(($"an expired {role} key", Key(expired[role]), 401, "unauthenticated"));
            }
            foreach (var role in PersonRoles)
            {
                var token = Token(_tokens.For($"{role}-1", role, SiteRoles.Contains(role) ? [place] : []));
                calls.Add(Expect($"a {role} token", token, bearer, role));
            }
            foreach (var role in KeyRoles)
            {
                calls.Add(Expect($"a {role} key", Key(keys[role]), apiKey, role));
            }
            if (operation.Path.Contains("{placeId}", StringComparison.Ordinal) && bearer?.FirstOrDefault(SiteRoles.Contains) is { } siteRole)
            {
                calls.Add(($"a {siteRole} token for another place", Token(_tokens.For("elsewhere", siteRole, otherPlace)), 403, "place-forbidden"));
            }
            foreach (var (who, credential, expected, code) in calls)
            {
                var answer = await SendAsync(operation, url, credential, ct);
                var wrong = expected switch
                {
                    null => answer.Status is 401 or 403,
                    -1 => answer.Status is not (401 or 403),
                    _ => answer.Status != expected || answer.Code != code || !operation.Documents(expected.Value, code!),
                };
                if (wrong)
                {
                    var wanted = expected switch { null => "neither 401 nor 403", -1 => "401 or 403", _ => $"{expected} {code}" };
                    var listed = expected is > 0 && !operation.Documents(expected.Value, code) ? $" (the document lists no {code} at {expected})" : "";
                    failures.Add($"{operation} with {who}: wanted {wanted}, got {answer.Status} {answer.Code}{listed}");
                }
            }
        }

        Assert.True(secured >= 15, $"only {secured} operations declare security");
        Assert.Contains(operations, o => o.Path == "/api/admin/keys" && o.Method == "POST");
        Assert.True(failures.Count == 0, string.Join(Environment.NewLine, failures));
    }

    /// <summary>
    /// A credential of a scheme the operation declares with <paramref name="roles"/> (null: not
    /// declared; empty: any role): a listed role passes (expected null), another is 403 forbidden, and a scheme not
    /// declared gets 401 or 403 (expected -1).
    /// </summary>
    private static (string, Credential?, int?, string?) Expect(string who, Credential credential, List<string>? roles, string role) =>
        roles is null ? ($"{who} (scheme not declared)", credential, -1, null)
        : roles.Count == 0 || roles.Contains(role) ? (who, credential, null, null)
        : ($"{who} (role not listed)", credential, 403, "forbidden");

    private static async Task<JsonObject> MakeKeyAsync(HttpClient admin, string role, TimeSpan life)
    {
        var made = await admin.PostAsJsonAsync("/api/admin/keys", new { name = $"matrix-{role}", role, expiresAt = DateTimeOffset.UtcNow + life });
        Assert.Equal(HttpStatusCode.Created, made.StatusCode);
        return await JsonAsync(made);
    }

    /// <summary>The path with its parameters filled: the place where it names one, an id nothing has otherwise.</summary>
    private static string Url(string path, int place) =>
        System.Text.RegularExpressions.Regex.Replace(path, @"\{(\w+)\}", m => m.Groups[1].Value == "placeId" ? place.ToString(System.Globalization.CultureInfo.InvariantCulture) : "999999");

    private static Credential Token(string token) => new(r => r.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token));

    private static Credential Key(string key) => new(r => r.Headers.Add("X-Api-Key", key));

    /// <summary>
    /// The call without a body: authorization answers before any body is read, and a right
    /// credential then meets 400, 404 or 415, which change nothing.
    /// </summary>
    private async Task<(int Status, string? Code)> SendAsync(Operation operation, string url, Credential? credential, CancellationToken ct)
    {
        using var request = new HttpRequestMessage(new HttpMethod(operation.Method), url);
        credential?.Apply(request);
        using var response = await _client!.SendAsync(request, ct);
        var problem = response.Content.Headers.ContentType?.MediaType == "application/problem+json";
        return ((int)response.StatusCode, problem ? await ProblemCodeAsync(response) : null);
    }

    private sealed record Credential(Action<HttpRequestMessage> Apply);

    private sealed record Operation(string Method, string Path, JsonNode Node)
    {
        /// <summary>Whether the document lists <paramref name="code"/> among the problems of <paramref name="status"/>.</summary>
        public bool Documents(int status, string? code) =>
            Node["responses"]?[status.ToString(System.Globalization.CultureInfo.InvariantCulture)]?["x-problem-codes"]?.AsArray()
                .Any(c => c!.GetValue<string>() == code) == true;

        public override string ToString() => $"{Method} {Path}";
    }
}
