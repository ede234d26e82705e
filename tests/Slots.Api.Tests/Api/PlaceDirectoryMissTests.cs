using Microsoft.Extensions.DependencyInjection;
using Slots.Api.Tests.Campaign;
using Slots.Catalogue;
using Slots.Places;

namespace Slots.Api.Tests.Api;

/// <summary>The places copy on a miss, with a clock whose timers never fire.</summary>
public sealed class PlaceDirectoryMissTests
{
    // Availability for a made-up place id (/api/places/13/availability) took about a second: a miss
    // waited for the next once-a-second reload. With a clock whose timers never fire, that wait never
    // ended; the guard below only turns such a hang into a failure.
    [Fact]
    public async Task An_unknown_place_is_answered_without_waiting_for_a_reload()
    {
        var (directory, _) = Directory();
        Assert.NotNull(await directory.FindAsync(1, TestContext.Current.CancellationToken));

        var unknown = directory.FindAsync(13, TestContext.Current.CancellationToken).AsTask();

        Assert.Same(unknown, await Task.WhenAny(unknown, Task.Delay(TimeSpan.FromSeconds(10), TestContext.Current.CancellationToken)));
        Assert.Null(await unknown);
    }

    [Fact]
    public async Task A_place_added_after_the_copy_was_loaded_is_found_at_once()
    {
        var (directory, places) = Directory();
        Assert.Null(await directory.FindAsync(2, TestContext.Current.CancellationToken));
        places.Add(Place(2));

        var found = directory.FindAsync(2, TestContext.Current.CancellationToken).AsTask();

        Assert.Same(found, await Task.WhenAny(found, Task.Delay(TimeSpan.FromSeconds(10), TestContext.Current.CancellationToken)));
        Assert.Equal(2, (await found)!.Id);
    }

    private static (PlaceDirectory Directory, List<Place> Places) Directory()
    {
        var places = new List<Place> { Place(1) };
        var services = new ServiceCollection().AddSingleton<ICatalogStore>(new CatalogueReads([], [], places)).BuildServiceProvider();
        return (new PlaceDirectory(services.GetRequiredService<IServiceScopeFactory>(), new StoppedClock()), places);
    }

    private static Place Place(int id) =>
        new() { Id = id, Name = $"Place {id}", Address = "Hlavná 1, 811 01 Bratislava", Region = "Bratislavský kraj", TimeZone = "Europe/Bratislava" };

    /// <summary>Real time for reading, but no timer ever fires: a wait on this clock never ends.</summary>
    private sealed class StoppedClock : TimeProvider
    {
        public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period) => new NeverFires();

        private sealed class NeverFires : ITimer
        {
            public bool Change(TimeSpan dueTime, TimeSpan period) => true;

            public void Dispose()
            {
            }

            public ValueTask DisposeAsync() => ValueTask.CompletedTask;
        }
    }
}
