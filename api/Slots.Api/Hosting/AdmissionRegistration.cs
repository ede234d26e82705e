using Microsoft.Extensions.Options;
using Slots.Admission;

namespace Slots.Api.Hosting;

internal static class AdmissionRegistration
{
    /// <summary>
    /// The API signs waiting-room tokens: without a signing key (Development and the test fixtures
    /// have a default) it refuses to start, rather than fail at the first join of an opening.
    /// </summary>
    public static IHostApplicationBuilder AddAdmissionTokens(this IHostApplicationBuilder builder)
    {
        builder.Services.AddOptions<AdmissionOptions>()
            .Validate(o => o.SigningKey.Length >= 32,
                $"Configuration '{AdmissionOptions.Section}:SigningKey' must hold a key of at least 32 characters, the same on every API instance.")
            .ValidateOnStart();
        return builder;
    }
}
