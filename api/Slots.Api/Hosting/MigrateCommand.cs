using Slots.Storage;

namespace Slots.Api.Hosting;

/// <summary>
/// `Slots.Api migrate`: apply the backend's schema scripts, bring the window up to date, create
/// the demo data when Slots:DemoData:WhenEmpty asks for it on an empty database, and exit without
/// listening. The one-shot init service of docker-compose runs it once, so the replicas can start
/// with Slots:Storage:MigrateOnStart=false and never race on the schema or the demo data.
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
        var demo = app.Services.GetRequiredService<Microsoft.Extensions.Options.IOptions<DemoDataOptions>>().Value;
        await DatabaseStartup.PrepareAsync(app.Services, migrate: true, demo, logger, stop.Token);
        LogMigrated(logger, provider);
        return 0;
    }

    [LoggerMessage(EventId = 1010, Level = LogLevel.Information, Message = "Schema of the {Provider} backend is up to date")]
    private static partial void LogMigrated(ILogger logger, StorageProvider provider);
}
