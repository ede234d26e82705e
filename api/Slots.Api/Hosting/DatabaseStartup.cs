using Microsoft.Extensions.Options;
using Slots.Demo;
using Slots.Storage;
using Slots.Window;

namespace Slots.Api.Hosting;

public sealed class DemoDataOptions
{
    public const string Section = "Slots:DemoData";

    /// <summary>Create demo places and slots when the database has no place yet.</summary>
    public bool WhenEmpty { get; set; }

    public int Places { get; set; } = 12;
    public int Days { get; set; } = 14;
    public int Capacity { get; set; } = 4;
    public int Seed { get; set; } = 20261121;
}

/// <summary>Before the first request: the schema, the hot window, and demo data on an empty database.</summary>
internal static partial class DatabaseStartup
{
    public static async Task PrepareDatabaseAsync(this WebApplication app)
    {
        var storage = app.Services.GetRequiredService<IOptions<StorageOptions>>().Value;
        if (storage.MigrateOnStart)
        {
            await app.Services.GetRequiredService<ISchemaMigrator>().MigrateAsync(app.Lifetime.ApplicationStopping);
        }
        await using var scope = app.Services.CreateAsyncScope();
        await scope.ServiceProvider.GetRequiredService<WindowService>().AdvanceAsync(app.Lifetime.ApplicationStopping);
        var demo = app.Services.GetRequiredService<IOptions<DemoDataOptions>>().Value;
        var data = scope.ServiceProvider.GetRequiredService<DemoData>();
        if (demo.WhenEmpty && await data.IsEmptyAsync(app.Lifetime.ApplicationStopping))
        {
            var result = await data.CreateAsync(new DemoDataRequest(demo.Places, demo.Days, demo.Capacity, demo.Seed), app.Lifetime.ApplicationStopping);
            LogDemoData(app.Logger, result.PlacesCreated, result.Slots.SlotsCreated);
        }
    }

    [LoggerMessage(EventId = 1002, Level = LogLevel.Information, Message = "Empty database: created {Places} demo places with {Slots} slots")]
    private static partial void LogDemoData(ILogger logger, int places, int slots);
}
