using Microsoft.Extensions.DependencyInjection;
using Slots.Catalogue;
using Slots.Places;

namespace Slots.Api.Tests.Campaign;

/// <summary>The service copy: kept for 30 s and then reloaded behind its readers, reloaded at once for a place it lacks (made on another instance), and after a write on this instance.</summary>
public sealed class ServiceDirectoryTests
{
    private static readonly ServiceInfo Default = new(ServiceIds.Default, ServiceIds.DefaultCode, "Termín", "Appointment", null, true);

    // A booking on one instance for a place made a moment before on another once answered 404
    // unknown-service: the place directory had reloaded for it, the service copy (younger than a second) not.
    [Fact]
    public async Task A_place_offered_after_the_copy_was_loaded_is_found_at_once_however_young_the_copy()
    {
        var ct = TestContext.Current.CancellationToken;
        var (directory, store, _) = Directory();
        Assert.Single(await directory.OfferedAtAsync(1, ct));
        store.Offers.Add(new PlaceOffer(2, ServiceIds.Default, null, null, true)); // another instance made place 2

        var offered = Assert.Single(await directory.OfferedAtAsync(2, ct));

        Assert.Equal(ServiceIds.DefaultCode, offered.Service.Code);
        Assert.Equal(2, store.Loads);
    }

    [Fact]
    public async Task A_place_whose_services_are_all_off_answers_none_without_reloading_the_copy()
    {
        var ct = TestContext.Current.CancellationToken;
        var (directory, store, _) = Directory();
        store.Offers.Add(new PlaceOffer(2, ServiceIds.Default, null, null, Active: false));

        for (var i = 0; i < 5; i++)
        {
            Assert.Empty(await directory.OfferedAtAsync(2, ct));
        }

        Assert.Single(await directory.OfferedAtAsync(1, ct));
        Assert.Equal(1, store.Loads);
    }

    [Fact]
    public async Task A_known_place_is_answered_from_the_copy_until_it_is_30_seconds_old_and_then_reloaded_behind_the_readers()
    {
        var ct = TestContext.Current.CancellationToken;
        var (directory, store, clock) = Directory();
        await directory.OfferedAtAsync(1, ct);
        store.Offers[0] = store.Offers[0] with { Active = false };

        clock.Now += TimeSpan.FromSeconds(20);
        Assert.Single(await directory.OfferedAtAsync(1, ct));
        Assert.Equal(1, store.Loads);
        clock.Now += TimeSpan.FromSeconds(11);
        Assert.Single(await directory.OfferedAtAsync(1, ct)); // answered from the old copy; the reload starts behind it

        Assert.Empty(await ReadUntilAsync(() => directory.OfferedAtAsync(1, ct), offered => offered.Count == 0)); // the place no longer offers it
        Assert.Equal(2, store.Loads);
    }

    // A stampede's reads once queued behind the 30 s reload, which waits for a database connection among
    // the bookings: kept availability answers took 2.5 s at p99 at the server in the benchmark's stampede.
    [Fact]
    public async Task Reads_past_the_copy_age_do_not_wait_for_its_reload()
    {
        var ct = TestContext.Current.CancellationToken;
        var (directory, store, clock) = Directory();
        await directory.OfferedAtAsync(1, ct);
        store.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously); // the reload hangs in the database

        clock.Now += TimeSpan.FromSeconds(31);
        var reads = Enumerable.Range(0, 50).Select(_ => directory.OfferedAtAsync(1, ct)).ToList();

        Assert.All(reads, read => Assert.True(read.IsCompletedSuccessfully));
        Assert.All(reads, read => Assert.Single(read.Result));
        await ReadUntilAsync(() => ValueTask.FromResult(store.Loads), loads => loads == 2);
        Assert.Equal(2, store.Loads); // one reload behind all fifty
        store.Gate.SetResult();
    }

    [Fact]
    public async Task Readers_waiting_for_the_first_load_all_take_that_one_load()
    {
        var ct = TestContext.Current.CancellationToken;
        var (directory, store, _) = Directory();
        store.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

        var reads = Enumerable.Range(0, 20).Select(_ => directory.OfferedAtAsync(1, ct).AsTask()).ToList();
        store.Gate.SetResult();
        await Task.WhenAll(reads);

        Assert.All(reads, read => Assert.Single(read.Result));
        Assert.Equal(1, store.Loads);
    }

    [Fact]
    public async Task A_write_on_this_instance_is_read_at_once_however_young_the_copy()
    {
        var ct = TestContext.Current.CancellationToken;
        var (directory, store, _) = Directory();
        await directory.OfferedAtAsync(1, ct);
        store.Offers[0] = store.Offers[0] with { Active = false };

        directory.Invalidate();

        Assert.Empty(await directory.OfferedAtAsync(1, ct));
        Assert.Equal(2, store.Loads);
    }

    private static async Task<T> ReadUntilAsync<T>(Func<ValueTask<T>> read, Func<T, bool> done)
    {
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (true)
        {
            var value = await read();
            if (done(value) || DateTime.UtcNow > deadline)
            {
                return value;
            }
            await Task.Delay(10);
        }
    }

    private static (ServiceDirectory Directory, CatalogueReads Store, ManualClock Clock) Directory()
    {
        var store = new CatalogueReads([Default], [new PlaceOffer(1, ServiceIds.Default, 4, null, true)]);
        var clock = new ManualClock();
        var services = new ServiceCollection().AddSingleton<ICatalogStore>(store).BuildServiceProvider();
        return (new ServiceDirectory(services.GetRequiredService<IServiceScopeFactory>(), clock), store, clock);
    }

    private sealed class ManualClock : TimeProvider
    {
        public DateTimeOffset Now { get; set; } = new(2030, 1, 2, 8, 0, 0, TimeSpan.Zero);

        public override DateTimeOffset GetUtcNow() => Now;
    }
}
