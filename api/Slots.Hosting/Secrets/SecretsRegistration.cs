using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;

namespace Slots.Hosting.Secrets;

/// <summary>
/// Where production secrets come from: environment variables (as ever), and files, one per key,
/// the way Docker and Kubernetes mount secrets (ASP.NET Core's key-per-file provider). Then, before
/// anything reads them, a start outside Development with a development value is refused.
/// </summary>
public static class SecretsRegistration
{
    /// <summary>The folder of secret files: names like Slots__Persons__HmacSecret, contents the value.</summary>
    public const string DirectoryKey = "SLOTS_SECRETS_DIR";

    /// <summary>Docker's and Kubernetes' usual mount point, read when it exists and no folder is named.</summary>
    public const string DefaultDirectory = "/run/secrets";

    public static IHostApplicationBuilder AddSecrets(this IHostApplicationBuilder builder)
    {
        var configured = builder.Configuration[DirectoryKey];
        var directory = string.IsNullOrWhiteSpace(configured) ? DefaultDirectory : Path.GetFullPath(configured);
        if (!string.IsNullOrWhiteSpace(configured) && !Directory.Exists(directory))
        {
            throw new InvalidOperationException($"{DirectoryKey} names a folder that does not exist: {directory}.");
        }
        if (Directory.Exists(directory))
        {
            // Last, so a mounted secret wins over an environment variable of the same key.
            builder.Configuration.AddKeyPerFile(directory, optional: true);
        }
        DevelopmentSecrets.RefuseOutsideDevelopment(builder.Configuration, builder.Environment);
        return builder;
    }
}
