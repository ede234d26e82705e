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
/// instance's memory target, while what stays in memory is 40 bytes a slot (<see cref="PublishedSlot"/> and its line).
/// Each publication is made from the one before, so a minute costs what changed in it, not the whole campaign again.
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
    private readonly FhirResources _resources = new(options.Value);
    private readonly string _root = Path.Combine(
        string.IsNullOrEmpty(options.Value.Folder) ? Path.GetTempPath() : options.Value.Folder,
        $"slots-finders-{Environment.ProcessId}-{Guid.NewGuid():N}");

    // The last publication and each place as it published it: the next one starts from them. Only the running
    // publication reads or replaces it.
    private State? _state;
    private readonly Queue<Publication> _kept = new();
    private volatile Publication? _current;
    private Task<Publication>? _running;
    private long _number;

    private sealed record State(Dictionary<int, PublishedPlace> Places, long LatestMs, Dictionary<string, Written> Regions, Digests Digests);

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

    /// <summary>
    /// One publication, made from the one before: one query over the hot store names the place-days whose seats changed
    /// since (their digests) and brings their slots; the other days are as published, so a quiet minute reads almost nothing
    /// (a store without digests streams every place's slots, a million rows of numbers, to be compared with what was
    /// published). In each region's Slot file only the slots that changed are serialized, the rest copied as they were.
    /// </summary>
    private async Task<Publication> PublishAsync(CancellationToken ct)
    {
        var o = options.Value;
        var started = clock.GetUtcNow();
        var state = _state;
        var number = Interlocked.Increment(ref _number);
        try
        {
            var active = (await places.AllAsync(ct)).Where(p => p.Active).OrderBy(p => p.Id).ToList();
            var offered = new IReadOnlyList<ServiceInfo>[active.Count];
            for (var i = 0; i < active.Count; i++)
            {
                offered[i] = [.. (await services.OfferedAtAsync(active[i].Id, ct)).Select(o => o.Service)];
            }
            // Every lastUpdated this publication gives is later than any the one before gave: each file stays newest first.
            var floorMs = (state?.LatestMs ?? 0) + 1;
            var (read, digests) = await ReadHotAsync(active, offered, state, number, floorMs, ct);
            // A place with no hot slots, one whose days reach past its hot horizon, or a store that cannot stream them
            // all: read place by place.
            await Parallel.ForEachAsync(Enumerable.Range(0, active.Count).Where(i => read[i] is null).ToList(),
                new ParallelOptions { MaxDegreeOfParallelism = o.Parallelism, CancellationToken = ct },
                async (i, c) => read[i] = await ReadAsync(active[i], offered[i], state, floorMs, c));
            var readSeconds = (clock.GetUtcNow() - started).TotalSeconds;
            var folder = Directory.CreateDirectory(_root).FullName;
            var slugs = Regions.Slugs(read.Select(p => p!.Place.Region));
            var regions = read.Select(p => p!).GroupBy(p => p.Place.Region).OrderBy(g => g.Key, StringComparer.Ordinal).Select(g => g.ToArray()).ToList();
            var written = new Written[regions.Count];
            await Parallel.ForEachAsync(Enumerable.Range(0, regions.Count), new ParallelOptions { MaxDegreeOfParallelism = Environment.ProcessorCount, CancellationToken = ct },
                (r, c) =>
                {
                    var region = regions[r][0].Place.Region;
                    written[r] = Kept(state, region, slugs[region], regions[r])
                        ?? WriteRegion(folder, number, region, slugs[region], regions[r], state?.Regions.GetValueOrDefault(region)?.Slots, o.CompactShare, c);
                    return ValueTask.CompletedTask;
                });
            var placesNow = written.SelectMany(w => w.Places).ToDictionary(p => p.Place.Id);
            // The transactionTime is at or after every lastUpdated given here (and never before the reads began, less the
            // snapshot's age), and every later read is stamped after it: a finder that passes it back as _since gets exactly
            // what a later publication saw change, nothing it already has (README: vaccine finders).
            var latest = Math.Max(floorMs - 1, placesNow.Values.Select(Latest).DefaultIfEmpty(0).Max());
            var transaction = Math.Max((started - AvailabilitySnapshot.MaxAge).ToUnixTimeMilliseconds(), latest);
            var publication = new Publication(number, DateTimeOffset.FromUnixTimeMilliseconds(transaction), [.. written.SelectMany(w => w.Files)]);
            _state = new State(placesNow, transaction, written.ToDictionary(w => w.Files[2].Region), digests);
            Swap(publication, _state);
            Published(logger, number, read.Length, placesNow.Values.Sum(p => p.Slots.Length), written.Sum(w => w.Serialized), readSeconds,
                (clock.GetUtcNow() - started).TotalSeconds - readSeconds);
            return publication;
        }
        catch (Exception ex)
        {
            // What the failed one wrote is not to be copied from: the next publication starts afresh.
            _state = null;
            if (ex is not OperationCanceledException)
            {
                PublishFailed(logger, ex.GetType().Name);
            }
            throw;
        }
    }

    /// <summary>
    /// The region as the publication before wrote it, when each of its places is the very one that publication held (nothing
    /// about it changed, <see cref="Changed"/>) and no place came or went: its three files are kept as they are, nothing is
    /// written. A quiet minute then costs the reads alone.
    /// </summary>
    private static Written? Kept(State? state, string region, string slug,
        PublishedPlace[] group)
    {
        if (state is null || !state.Regions.TryGetValue(region, out var before) || before.Files[0].Name != $"Location-{slug}.ndjson"
            || state.Places.Values.Count(p => p.Place.Region == region) != group.Length
            || !group.All(p => state.Places.TryGetValue(p.Place.Id, out var was) && ReferenceEquals(was, p)))
        {
            return null;
        }
        return before with { Places = group, Serialized = 0 };
    }

    private static long Latest(PublishedPlace p) =>
        Math.Max(p.LocationUpdatedMs, Math.Max(p.Schedules.Select(s => s.UpdatedMs).DefaultIfEmpty(0).Max(), p.Slots.Select(s => s.UpdatedMs).DefaultIfEmpty(0).Max()));

    /// <summary>
    /// Makes the publication current; keeps the one before for finders still reading it, and deletes the files of older
    /// ones that neither of those nor the next publication's starting point needs (a region's base lives on).
    /// </summary>
    private void Swap(Publication publication, State state)
    {
        lock (_gate)
        {
            _current = publication;
            _kept.Enqueue(publication);
            while (_kept.Count > 2)
            {
                var gone = _kept.Dequeue();
                var needed = _kept.SelectMany(Paths).Concat(state.Regions.Values.SelectMany(r => r.Slots.Paths)).ToHashSet(StringComparer.Ordinal);
                foreach (var path in Paths(gone).Where(p => !needed.Contains(p)))
                {
                    // An open file stays readable on Linux until its reader closes it.
                    TryDelete(path);
                }
            }
        }

        static IEnumerable<string> Paths(Publication p) => p.Files.SelectMany(f => f.Parts).Select(part => part.Path).Distinct();
    }

    public void Dispose()
    {
        try
        {
            Directory.Delete(_root, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // A file still open elsewhere: the temporary folder's own cleanup takes it.
        }
    }

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // A file still open elsewhere: the temporary folder's own cleanup takes it.
        }
    }

    [LoggerMessage(EventId = 1301, Level = LogLevel.Information,
        Message = "Published availability for vaccine finders #{Number}: {Places} places, {Slots} slots ({Serialized} serialized, the rest copied), read in {ReadSeconds:0.0} s, written in {WriteSeconds:0.0} s")]
    private static partial void Published(ILogger logger, long number, int places, int slots, int serialized, double readSeconds, double writeSeconds);

    [LoggerMessage(EventId = 1302, Level = LogLevel.Error, Message = "Publishing availability for vaccine finders failed: {ExceptionType}")]
    private static partial void PublishFailed(ILogger logger, string exceptionType);
}
