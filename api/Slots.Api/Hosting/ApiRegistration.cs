using Microsoft.AspNetCore.HttpOverrides;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Slots.Api.Places;
using Slots.Api.Reservations;

namespace Slots.Api.Hosting;

internal static class ApiRegistration
{
    /// <summary>HTTP plumbing: source-generated JSON, problem details everywhere, OpenAPI, trusted proxies.</summary>
    public static IHostApplicationBuilder AddHttpApi(this IHostApplicationBuilder builder)
    {
        builder.Services.ConfigureHttpJsonOptions(o =>
        {
            o.SerializerOptions.TypeInfoResolverChain.Insert(0, SlotsJsonContext.Default);
            // Answers carry numbers as numbers; without this the OpenAPI document (and the SPA's types generated
            // from it) would say "integer or string". Bodies are read by JsonBody with the context's own options.
            o.SerializerOptions.NumberHandling = System.Text.Json.Serialization.JsonNumberHandling.Strict;
        });
        builder.Services.AddProblemDetails(o => o.CustomizeProblemDetails = Problem.WithCode);
        // Header values are read as Latin-1, every byte a character: a header that is not valid UTF-8
        // reaches the handler, which answers 400 problem+json naming it, instead of Kestrel's bare 400.
        builder.Services.Configure<KestrelServerOptions>(o => o.RequestHeaderEncodingSelector = _ => System.Text.Encoding.Latin1);
        builder.Services.AddExceptionHandler<DatabaseUnavailableHandler>();
        builder.Services.AddSlotsOpenApi();
        builder.Services.AddSingleton<ApiMetrics>();
        // Availability bytes reused while the snapshot they show is unchanged: a crowd on one week costs one serialization.
        builder.Services.AddSingleton<AvailabilityAnswers>();
        builder.Services.AddScoped<ReservationRequests>();
        builder.Services.AddScoped<ProofGate>();
        // The SMS texts a person's data shows link to the public address, also where no relay runs here.
        builder.Services.AddOptions<Slots.Sms.SmsOptions>().BindConfiguration(Slots.Sms.SmsOptions.Section);
        builder.Services.AddOptions<DemoDataOptions>().BindConfiguration(DemoDataOptions.Section);
        builder.Services.AddHostedService<DatabaseStartup>();
        // X-Forwarded-For and X-Forwarded-Proto are believed only from the proxies named here (HAProxy); everyone else
        // could forge them. With no proxy named they are not read at all: the middleware treats empty lists as "trust
        // anyone". The scheme makes the addresses the API gives back (a finder's manifest) the HTTPS ones clients use.
        builder.Services.Configure<ForwardedHeadersOptions>(o =>
        {
            var proxies = builder.Configuration.GetSection("Slots:TrustedProxies").Get<string[]>() ?? [];
            o.ForwardedHeaders = proxies.Length > 0 ? ForwardedHeaders.XForwardedFor | ForwardedHeaders.XForwardedProto : ForwardedHeaders.None;
            o.KnownProxies.Clear();
            o.KnownIPNetworks.Clear();
            foreach (var proxy in proxies)
            {
                o.KnownProxies.Add(System.Net.IPAddress.Parse(proxy));
            }
        });
        return builder;
    }
}
