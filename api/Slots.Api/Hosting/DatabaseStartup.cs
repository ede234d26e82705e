using Microsoft.Extensions.Options;
using Slots.Catalogue;
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

/// <summary>
/// Before the server listens: the schema, the hot window, and demo data on an empty database.
/// StartingAsync runs before any hosted service's StartAsync, Kestrel's included.
/// </summary>
internal sealed partial class DatabaseStartup(
    IServiceProvider services,
    IOptions<StorageOptions> storage,
    IOptions<DemoDataOptions> demo,
    ILogger<DatabaseStartup> logger) : IHostedLifecycleService
{
    public Task StartingAsync(CancellationToken ct) =>
        PrepareAsync(services, storage.Value.MigrateOnStart, demo.Value, logger, ct);

    /// <summary>
    /// The schema (when <paramref name="migrate"/>), the window brought up to date, and demo data
    /// when asked for and the database has no place. Every step is idempotent, so replicas that
    /// start together may all run it. Shared with the `migrate` command.
    /// </summary>
    public static async Task PrepareAsync(IServiceProvider services, bool migrate, DemoDataOptions demo, ILogger logger, CancellationToken ct)
    {
        if (migrate)
        {
            await services.GetRequiredService<ISchemaMigrator>().MigrateAsync(ct);
        }
        await using var scope = services.CreateAsyncScope();
        await scope.ServiceProvider.GetRequiredService<IWindowSync>().AdvanceAsync(ct);
        var data = scope.ServiceProvider.GetRequiredService<DemoData>();
        if (demo.WhenEmpty && await data.IsEmptyAsync(ct))
        {
            var result = await data.CreateAsync(new DemoDataRequest(demo.Places, demo.Days, demo.Capacity, demo.Seed), ct);
            LogDemoData(logger, result.PlacesCreated, result.Slots.SlotsCreated);
        }
    }

    public Task StartAsync(CancellationToken ct) => Task.CompletedTask;
    public Task StartedAsync(CancellationToken ct) => Task.CompletedTask;
    public Task StoppingAsync(CancellationToken ct) => Task.CompletedTask;
    public Task StopAsync(CancellationToken ct) => Task.CompletedTask;
    public Task StoppedAsync(CancellationToken ct) => Task.CompletedTask;

    [LoggerMessage(EventId = 1002, Level = LogLevel.Information, Message = "Empty database: created {Places} demo places with {Slots} slots")]
    private static partial void LogDemoData(ILogger logger, int places, int slots);
}
