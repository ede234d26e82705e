using System.Net;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.WebUtilities;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Protocols;
using Microsoft.IdentityModel.Protocols.OpenIdConnect;
using Microsoft.IdentityModel.Tokens;
using Slots.Testing;

namespace Slots.Api.Tests.Staff;

/// <summary>
/// The OpenID provider the staff sign-in tests get their tokens from: discovery, JWT access tokens
/// with the staff claims, signatures checked the way JwtBearer checks them (keys from the
/// discovery document's jwks_uri), expiry, a foreign issuer, and the browser's code flow.
/// </summary>
public sealed class OidcTestProviderTests(OidcTestProviderTests.SharedProvider shared) : IClassFixture<OidcTestProviderTests.SharedProvider>
{
    // Never called: the code flow stops at the redirect back, where the SPA would take over.
    private static readonly Uri SignedIn = new("http://127.0.0.1:9/signed-in");

    private readonly OidcTestProvider _provider = shared.Provider;

    /// <summary>One provider for the class (a node start each costs a second); tests keep apart by subject.</summary>
    public sealed class SharedProvider : IAsyncLifetime
    {
        public OidcTestProvider Provider { get; private set; } = null!;

        public async ValueTask InitializeAsync() =>
            Provider = await OidcTestProvider.StartAsync([new StaffMember("alice", ["site-staff"], [3, 14])], [SignedIn]);

        public async ValueTask DisposeAsync() => await Provider.DisposeAsync();
    }

    [Fact]
    public async Task Discovery_names_the_issuer_and_a_jwks_uri_with_an_RS256_key()
    {
        using var http = new HttpClient();

        using var discovery = JsonDocument.Parse(await http.GetStringAsync(_provider.DiscoveryUri));
        var jwksUri = discovery.RootElement.GetProperty("jwks_uri").GetString()!;
        using var jwks = JsonDocument.Parse(await http.GetStringAsync(new Uri(jwksUri)));

        Assert.Equal(_provider.Issuer, discovery.RootElement.GetProperty("issuer").GetString());
        Assert.StartsWith(_provider.Issuer + "/", jwksUri, StringComparison.Ordinal);
        var key = Assert.Single(jwks.RootElement.GetProperty("keys").EnumerateArray());
        Assert.Equal(("RSA", "RS256", "sig"), (key.GetProperty("kty").GetString(), key.GetProperty("alg").GetString(), key.GetProperty("use").GetString()));
        Assert.False(key.TryGetProperty("d", out _), "the published key must be the public half");
    }

    [Fact]
    public async Task A_client_credentials_token_is_an_RS256_JWT_with_the_staff_claims_asked_for()
    {
        var token = new JsonWebToken(await _provider.TokenAsync("staff-7", ["site-staff", "site-manager"], [3, 14]));

        Assert.Equal(("RS256", "at+jwt"), (token.Alg, token.Typ));
        using var payload = Payload(token);
        var claims = payload.RootElement;
        Assert.Equal(_provider.Issuer, claims.GetProperty("iss").GetString());
        Assert.Equal("slots-api", claims.GetProperty("aud").GetString());
        Assert.Equal("staff-7", claims.GetProperty("sub").GetString());
        Assert.Equal(["site-staff", "site-manager"], Strings(claims.GetProperty("role")));
        Assert.Equal(["3", "14"], Strings(claims.GetProperty("places")));
        Assert.InRange(claims.GetProperty("exp").GetInt64() - claims.GetProperty("iat").GetInt64(), 599, 600);
    }

    [Fact]
    public async Task Asking_again_for_a_subject_with_other_claims_gets_those_claims()
    {
        await _provider.TokenAsync("staff-8", ["site-staff"], [1]);

        using var payload = Payload(new JsonWebToken(await _provider.TokenAsync("staff-8", ["admin"], [])));

        Assert.Equal(["admin"], Strings(payload.RootElement.GetProperty("role")));
        Assert.Empty(Strings(payload.RootElement.GetProperty("places")));
    }

    [Fact]
    public async Task The_token_validates_against_the_keys_the_discovery_document_names()
    {
        var token = await _provider.TokenAsync("staff-9", ["site-manager"], [5]);

        var result = await ValidateAsync(_provider, token);

        Assert.True(result.IsValid, result.Exception?.Message);
        Assert.Equal("staff-9", result.ClaimsIdentity.FindFirst("sub")?.Value);
        Assert.Equal(["site-manager"], result.ClaimsIdentity.FindAll("role").Select(c => c.Value));
        Assert.Equal(["5"], result.ClaimsIdentity.FindAll("places").Select(c => c.Value));
    }

    [Fact]
    public async Task A_short_lived_token_is_expired_after_its_lifetime()
    {
        var token = await _provider.TokenAsync("staff-10", ["site-staff"], [3], TimeSpan.FromSeconds(2));
        var expires = new JsonWebToken(token).ValidTo;

        Assert.True((await ValidateAsync(_provider, token)).IsValid, "valid before it expires");
        await Task.Delay(expires - DateTime.UtcNow + TimeSpan.FromMilliseconds(100));
        var result = await ValidateAsync(_provider, token);

        Assert.IsType<SecurityTokenExpiredException>(result.Exception);
    }

    [Fact]
    public async Task A_second_provider_has_its_own_issuer_and_key_and_its_tokens_fail_the_first_ones_keys()
    {
        await using var other = await OidcTestProvider.StartAsync();
        var foreign = await other.TokenAsync("staff-7", ["admin"], []);

        var first = await ConfigurationAsync(_provider);
        var second = await ConfigurationAsync(other);
        // The issuer checked alone would refuse it anyway; with the issuer allowed, the signature still does.
        var result = await new JsonWebTokenHandler().ValidateTokenAsync(foreign, Parameters(other, first.SigningKeys));

        Assert.NotEqual(_provider.Issuer, other.Issuer);
        Assert.NotEqual(Modulus(first), Modulus(second));
        Assert.IsAssignableFrom<SecurityTokenInvalidSignatureException>(result.Exception);
        Assert.True((await ValidateAsync(other, foreign)).IsValid, "valid for the provider that issued it");
    }

    [Fact]
    public async Task Signing_in_with_the_code_flow_and_PKCE_gives_the_user_the_same_claims()
    {
        using var browser = Browser();

        var token = await SignInAsync(browser, "alice");

        var result = await ValidateAsync(_provider, token);
        Assert.True(result.IsValid, result.Exception?.Message);
        Assert.Equal("alice", result.ClaimsIdentity.FindFirst("sub")?.Value);
        Assert.Equal(["site-staff"], result.ClaimsIdentity.FindAll("role").Select(c => c.Value));
        Assert.Equal(["3", "14"], result.ClaimsIdentity.FindAll("places").Select(c => c.Value));
        using var payload = Payload(new JsonWebToken(token));
        Assert.Equal(JsonValueKind.Array, payload.RootElement.GetProperty("role").ValueKind);
    }

    [Fact]
    public async Task The_login_page_refuses_a_user_name_it_does_not_know()
    {
        using var browser = Browser();
        var login = await LoginPageAsync(browser);

        using var refused = await browser.PostAsync(new Uri(login + "/login"), Form(("login", "mallory")));

        Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);
        Assert.Contains("Unknown user name", await refused.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    private async Task<string> SignInAsync(HttpClient browser, string userName)
    {
        var verifier = Base64UrlEncoder.Encode(RandomNumberGenerator.GetBytes(32));
        var login = await LoginPageAsync(browser, Base64UrlEncoder.Encode(SHA256.HashData(Encoding.ASCII.GetBytes(verifier))));
        using var signedIn = await browser.PostAsync(new Uri(login + "/login"), Form(("login", userName)));
        using var resumed = await browser.GetAsync(Redirect(signedIn));
        var back = Redirect(resumed);
        Assert.Equal(SignedIn.GetLeftPart(UriPartial.Path), back.GetLeftPart(UriPartial.Path));
        var code = QueryHelpers.ParseQuery(back.Query)["code"].ToString();

        using var response = await browser.PostAsync(new Uri($"{_provider.Issuer}/token"), Form(
            ("grant_type", "authorization_code"),
            ("client_id", OidcTestProvider.SpaClientId),
            ("code", code),
            ("code_verifier", verifier),
            ("redirect_uri", SignedIn.ToString())));
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, body);
        using var json = JsonDocument.Parse(body);
        return json.RootElement.GetProperty("access_token").GetString()!;
    }

    /// <summary>Starts the SPA's authorization request; returns the login page it is sent to.</summary>
    private async Task<Uri> LoginPageAsync(HttpClient browser, string? challenge = null)
    {
        challenge ??= Base64UrlEncoder.Encode(SHA256.HashData(RandomNumberGenerator.GetBytes(32)));
        var query = QueryHelpers.AddQueryString($"{_provider.Issuer}/auth", new Dictionary<string, string?>
        {
            ["client_id"] = OidcTestProvider.SpaClientId,
            ["response_type"] = "code",
            ["scope"] = "openid",
            ["redirect_uri"] = SignedIn.ToString(),
            ["code_challenge"] = challenge,
            ["code_challenge_method"] = "S256",
            ["state"] = "state-1",
        });
        using var authorize = await browser.GetAsync(new Uri(query));
        var login = Redirect(authorize);
        var page = await browser.GetStringAsync(login);
        Assert.Contains("name=\"login\"", page, StringComparison.Ordinal);
        return login;
    }

    private static HttpClient Browser() =>
        new(new HttpClientHandler { AllowAutoRedirect = false, CookieContainer = new CookieContainer() }) { Timeout = TimeSpan.FromSeconds(10) };

    private static Uri Redirect(HttpResponseMessage response)
    {
        Assert.True((int)response.StatusCode is >= 300 and < 400, $"expected a redirect, got {(int)response.StatusCode}");
        return new Uri(response.RequestMessage!.RequestUri!, response.Headers.Location!);
    }

    private static FormUrlEncodedContent Form(params (string Key, string Value)[] fields) =>
        new(fields.Select(f => KeyValuePair.Create(f.Key, f.Value)));

    private static JsonDocument Payload(JsonWebToken token) => JsonDocument.Parse(Base64UrlEncoder.Decode(token.EncodedPayload));

    private static string[] Strings(JsonElement array) => [.. array.EnumerateArray().Select(e => e.GetString()!)];

    private static string Modulus(OpenIdConnectConfiguration configuration) => Assert.Single(configuration.JsonWebKeySet.Keys).N;

    /// <summary>What JwtBearer does with an authority: the discovery document, then the keys at its jwks_uri.</summary>
    private static Task<OpenIdConnectConfiguration> ConfigurationAsync(OidcTestProvider provider) =>
        OpenIdConnectConfigurationRetriever.GetAsync(provider.DiscoveryUri.ToString(), new HttpDocumentRetriever { RequireHttps = false }, CancellationToken.None);

    private static async Task<TokenValidationResult> ValidateAsync(OidcTestProvider provider, string token) =>
        await new JsonWebTokenHandler().ValidateTokenAsync(token, Parameters(provider, (await ConfigurationAsync(provider)).SigningKeys));

    private static TokenValidationParameters Parameters(OidcTestProvider provider, IEnumerable<SecurityKey> keys) => new()
    {
        ValidIssuer = provider.Issuer,
        ValidAudience = provider.Audience,
        IssuerSigningKeys = keys,
        ValidAlgorithms = [SecurityAlgorithms.RsaSha256],
        ClockSkew = TimeSpan.Zero,
    };
}
