using Slots.Storage;

namespace Slots.Api.Hosting;

/// <summary>
/// `Slots.Api migrate`: apply the backend's schema scripts and exit, without listening. The
/// one-shot init service of docker-compose runs it once, so the replicas can start with
/// Slots:Storage:MigrateOnStart=false and never race on the schema.
/// </summary>
internal static partial class MigrateCommand
{
    public const string Name = "migrate";

    public static bool IsRequested(string[] args) => args is [Name, ..];

    public static async Task<int> RunAsync(WebApplication app)
    {
        var logger = app.Services.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(MigrateCommand));
        var provider = app.Services.GetRequiredService<Microsoft.Extensions.Options.IOptions<StorageOptions>>().Value.Provider;
        using var stop = new CancellationTokenSource(TimeSpan.FromMinutes(10));
        await app.Services.GetRequiredService<ISchemaMigrator>().MigrateAsync(stop.Token);
        LogMigrated(logger, provider);
        return 0;
    }

    [LoggerMessage(EventId = 1010, Level = LogLevel.Information, Message = "Schema of the {Provider} backend is up to date")]
    private static partial void LogMigrated(ILogger logger, StorageProvider provider);
}
