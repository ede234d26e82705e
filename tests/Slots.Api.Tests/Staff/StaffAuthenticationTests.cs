using System.Net;
using System.Net.Http.Headers;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Slots.Api.Staff;
using Slots.Api.Tests.Api;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Staff;

/// <summary>
/// Only a request that carries a credential (a bearer token, a machine key) is authenticated: the people booking and
/// reading availability carry none, and reading both schemes for them was about 8 % of an instance's CPU per answer.
/// Each request is authenticated at most once, and a staff endpoint still answers an anonymous request 401.
/// </summary>
public sealed class StaffAuthenticationTests : ApiTestBase
{
    private readonly StaffTokens _tokens = new();
    private readonly Counted _counted = new();

    [Fact]
    public async Task A_request_without_credentials_is_not_authenticated_and_one_with_a_key_or_a_token_is_authenticated_once()
    {
        var host = await StartAsync(_tokens.Settings, services => services.AddScoped<IAuthenticationService>(sp => new CountingAuthentication(
            sp.GetRequiredService<IAuthenticationSchemeProvider>(), sp.GetRequiredService<IAuthenticationHandlerProvider>(),
            sp.GetRequiredService<IClaimsTransformation>(), sp.GetRequiredService<IOptions<AuthenticationOptions>>(), _counted)));
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);
        var anonymous = host.Client();
        var bearer = host.Client();
        bearer.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", _tokens.For("eva.admin", "admin"));

        var read = await Count(() => anonymous.GetAsync($"/api/places/{place}/availability?from={Day(Today.AddDays(2))}&to={Day(Today.AddDays(2))}"));
        var booked = await Count(() => anonymous.SendAsync(Reserve(place, Today.AddDays(2), "08:10", People.Next())));
        var refused = await Count(() => anonymous.GetAsync("/api/admin/jobs"));
        var byKey = await Count(() => host.AdminClient().GetAsync("/api/admin/jobs"));
        var byToken = await Count(() => bearer.GetAsync("/api/admin/jobs"));

        Assert.Equal((HttpStatusCode.OK, 0), read);
        Assert.Equal((HttpStatusCode.Created, 0), booked);
        Assert.Equal((HttpStatusCode.Unauthorized, 0), refused);
        Assert.Equal((HttpStatusCode.OK, 1), byKey);
        Assert.Equal((HttpStatusCode.OK, 1), byToken);
    }

    private async Task<(HttpStatusCode Status, int Authentications)> Count(Func<Task<HttpResponseMessage>> send)
    {
        var before = _counted.Value;
        using var answer = await send();
        return (answer.StatusCode, _counted.Value - before);
    }

    private sealed class Counted
    {
        private int _value;
        public int Value => Volatile.Read(ref _value);
        public void Add() => Interlocked.Increment(ref _value);
    }

    private sealed class CountingAuthentication(IAuthenticationSchemeProvider schemes, IAuthenticationHandlerProvider handlers,
        IClaimsTransformation transform, IOptions<AuthenticationOptions> options, Counted counted)
        : AuthenticationService(schemes, handlers, transform, options)
    {
        public override Task<AuthenticateResult> AuthenticateAsync(Microsoft.AspNetCore.Http.HttpContext context, string? scheme)
        {
            // The pipeline's authentication asks for the staff scheme, which forwards to the bearer or the key scheme.
            if (scheme == StaffAuth.Scheme)
            {
                counted.Add();
            }
            return base.AuthenticateAsync(context, scheme);
        }
    }
}
