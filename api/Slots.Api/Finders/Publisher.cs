using System.Collections.Concurrent;
using Hl7.Fhir.Model;
using Hl7.Fhir.Serialization;
using Microsoft.Extensions.Options;
using Slots.Catalogue;
using Slots.Places;
using Slots.Reservations;
using Slots.Window;

namespace Slots.Api.Finders;

/// <summary>
/// Makes the SMART Scheduling Links publication and keeps the latest one. A finder's poll never waits for the
/// database: it gets the latest publication, and when that is older than <see cref="FinderOptions.RefreshSeconds"/>
/// the poll starts the next one in the background (one at a time), so a stampede of finders costs one publication a
/// minute. Files go to disk and are sent from there: a million Slots are hundreds of megabytes of NDJSON, more than an
/// instance's memory target, while what stays in memory is 32 bytes a slot (<see cref="PublishedSlot"/>).
/// </summary>
internal sealed partial class Publisher(
    PlaceDirectory places,
    ServiceDirectory services,
    ReservationService reservations,
    TimeProvider clock,
    IOptions<FinderOptions> options,
    IHostApplicationLifetime lifetime,
    ILogger<Publisher> logger) : IDisposable
{
    private readonly Lock _gate = new();
    private readonly BaseFhirJsonSerializer _serializer = new(ModelInfo.ModelInspector);
    private readonly FhirResources _resources = new(options.Value);
    private readonly string _root = Path.Combine(
        string.IsNullOrEmpty(options.Value.Folder) ? Path.GetTempPath() : options.Value.Folder,
        $"slots-finders-{Environment.ProcessId}-{Guid.NewGuid():N}");

    // Each place as last published; only the running publication touches it, one entry at a time.
    private readonly ConcurrentDictionary<int, PublishedPlace> _places = new();
    private readonly Queue<Publication> _kept = new();
    private volatile Publication? _current;
    private Task<Publication>? _running;
    private long _number;

    /// <summary>The latest publication; waits only for the very first one.</summary>
    public async Task<Publication> CurrentAsync(CancellationToken ct)
    {
        var current = _current;
        if (current is not null && clock.GetUtcNow() - current.TransactionTime < TimeSpan.FromSeconds(options.Value.RefreshSeconds))
        {
            return current;
        }
        var next = Start();
        return current ?? await next.WaitAsync(ct);
    }

    private Task<Publication> Start()
    {
        lock (_gate)
        {
            if (_running is null || _running.IsCompleted)
            {
                // Not the caller's token: the publication is shared by every poll, and stops only with the host.
                _running = System.Threading.Tasks.Task.Run(() => PublishAsync(lifetime.ApplicationStopping));
            }
            return _running;
        }
    }

    private async Task<Publication> PublishAsync(CancellationToken ct)
    {
        var o = options.Value;
        var started = clock.GetUtcNow();
        try
        {
            var active = (await places.AllAsync(ct)).Where(p => p.Active).OrderBy(p => p.Id).ToList();
            var read = new PublishedPlace[active.Count];
            await Parallel.ForEachAsync(Enumerable.Range(0, active.Count), new ParallelOptions { MaxDegreeOfParallelism = o.Parallelism, CancellationToken = ct },
                async (i, c) => read[i] = await ReadAsync(active[i], o.Days, c));
            var readSeconds = (clock.GetUtcNow() - started).TotalSeconds;
            foreach (var gone in _places.Keys.Except(active.Select(p => p.Id)).ToList())
            {
                _places.TryRemove(gone, out _);
            }
            var number = Interlocked.Increment(ref _number);
            var folder = Directory.CreateDirectory(Path.Combine(_root, number.ToString(System.Globalization.CultureInfo.InvariantCulture))).FullName;
            var files = new List<NdjsonFile>();
            var slugs = Regions.Slugs(read.Select(p => p.Place.Region));
            foreach (var region in read.GroupBy(p => p.Place.Region).OrderBy(g => g.Key, StringComparer.Ordinal))
            {
                files.AddRange(await WriteRegionAsync(folder, region.Key, slugs[region.Key], [.. region], ct));
            }
            // Every resource was read after this instant less the snapshot's age: a finder that passes it back as _since
            // misses nothing that changed after the data it got, on this instance or another (README: vaccine finders).
            var publication = new Publication(number, started - AvailabilitySnapshot.MaxAge, folder, files);
            Swap(publication);
            Published(logger, number, read.Length, read.Sum(p => p.Slots.Length), readSeconds, (clock.GetUtcNow() - started).TotalSeconds - readSeconds);
            return publication;
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            PublishFailed(logger, ex.GetType().Name);
            throw;
        }
    }

    private async Task<PublishedPlace> ReadAsync(PlaceInfo place, int days, CancellationToken ct)
    {
        var today = LocalClock.Today(place, clock.GetUtcNow());
        var offered = (await services.OfferedAtAsync(place.Id, ct)).Select(o => o.Service).ToList();
        // One read for every service (a later day costs one disk query, not one per service), then service by
        // service in the order offered, each in start order as read.
        var every = await reservations.EveryServiceAsync(place, today, today.AddDays(days - 1), ct);
        var order = offered.Select((service, i) => (service.Id, i)).ToDictionary(x => x.Id, x => x.i);
        var slots = every.Where(s => order.ContainsKey(s.Slot.ServiceId)).OrderBy(s => order[s.Slot.ServiceId]).ToList();
        var read = clock.GetUtcNow();
        var now = read.ToUnixTimeSeconds();
        // A slot that has started cannot be booked any more (as the availability endpoint says).
        var open = slots.Where(s => s.StartsAtUnix > now).ToList();
        var next = PublishedPlace.Next(_places.GetValueOrDefault(place.Id), place, offered, open, read.ToUnixTimeMilliseconds());
        _places[place.Id] = next;
        return next;
    }

    private async Task<NdjsonFile[]> WriteRegionAsync(string folder, string region, string slug, PublishedPlace[] group, CancellationToken ct)
    {
        var byLocation = group.OrderByDescending(p => p.LocationUpdatedMs).ToList();
        var schedules = group.SelectMany(p => p.Schedules.Select(s => (Place: p, Schedule: s))).OrderByDescending(x => x.Schedule.UpdatedMs).ToList();
        // Every slot of the region by lastUpdated, newest first: 8 bytes each while the file is written.
        var order = new List<(int Place, int Slot)>(group.Sum(p => p.Slots.Length));
        for (var p = 0; p < group.Length; p++)
        {
            for (var s = 0; s < group[p].Slots.Length; s++)
            {
                order.Add((p, s));
            }
        }
        order.Sort((a, b) => group[b.Place].Slots[b.Slot].UpdatedMs.CompareTo(group[a.Place].Slots[a.Slot].UpdatedMs));
        return
        [
            await Write("Location", byLocation.Select(p => (p.LocationUpdatedMs, (Resource)_resources.Location(p)))),
            await Write("Schedule", schedules.Select(x => (x.Schedule.UpdatedMs, (Resource)_resources.Schedule(x.Place, x.Schedule)))),
            await Write("Slot", order.Select(i =>
            {
                var place = group[i.Place];
                var slot = place.Slots[i.Slot];
                return (slot.UpdatedMs, (Resource)_resources.Slot(place, place.ScheduleOf(i.Slot), slot));
            })),
        ];

        Task<NdjsonFile> Write(string type, IEnumerable<(long, Resource)> resources)
        {
            var name = $"{type}-{slug}.ndjson";
            return NdjsonFile.WriteAsync(name, type, region, Path.Combine(folder, name), resources, _serializer, ct);
        }
    }

    /// <summary>Makes the publication current; keeps the one before for finders still reading it, deletes older ones.</summary>
    private void Swap(Publication publication)
    {
        lock (_gate)
        {
            _current = publication;
            _kept.Enqueue(publication);
            while (_kept.Count > 2)
            {
                // An open file stays readable on Linux until its reader closes it.
                TryDelete(_kept.Dequeue().Folder);
            }
        }
    }

    public void Dispose() => TryDelete(_root);

    private static void TryDelete(string folder)
    {
        try
        {
            Directory.Delete(folder, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // A file still open elsewhere: the temporary folder's own cleanup takes it.
        }
    }

    [LoggerMessage(EventId = 1301, Level = LogLevel.Information,
        Message = "Published availability for vaccine finders #{Number}: {Places} places, {Slots} slots, read in {ReadSeconds:0.0} s, written in {WriteSeconds:0.0} s")]
    private static partial void Published(ILogger logger, long number, int places, int slots, double readSeconds, double writeSeconds);

    [LoggerMessage(EventId = 1302, Level = LogLevel.Error, Message = "Publishing availability for vaccine finders failed: {ExceptionType}")]
    private static partial void PublishFailed(ILogger logger, string exceptionType);
}
