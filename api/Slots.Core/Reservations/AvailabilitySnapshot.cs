using System.Collections.Concurrent;
using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Slots.Reservations;

/// <summary>
/// The free seats of each place's hot days as this API instance last read them, so a stampede's
/// availability reads (and the alternatives offered with a "slot full") cost no query each:
/// <list type="bullet">
/// <item>a place is held only once it is popular: the first read of a place (none in the last
/// <see cref="MaxAge"/>) asks the database for its own days only, so readers spread over many places
/// pay for a week, not for the whole hot window; a second read within that age loads the place;</item>
/// <item>an entry holds the hot days from today up to the last whole week its readers reached since it
/// was loaded, not the whole window: a stampede reads the first week, and a reload of 30 days a second per
/// popular place and instance was a sixth of the database's time on the booking path; a read beyond
/// the entry's days loads as far as it reaches;</item>
/// <item>a place's entry is read again when it is older than <see cref="MaxAge"/>, by one query
/// that every concurrent miss shares (single flight); a read in the last quarter of that age
/// starts the query behind it and is answered from the entry, and so is every read while that query
/// runs, up to <see cref="MaxStale"/>: a place read all the time never makes a reader wait for the
/// database (in a stampede that wait is for a connection and a thread among the bookings, and outlasts
/// the quarter: built answers took 300 ms at p50 at the server, then 250 ms at p99);</item>
/// <item>while the loads are slow (<see cref="SlowLoad"/> on average: the database is busy), any entry
/// younger than <see cref="MaxStale"/> answers at once and is read again behind its reader: a place
/// not read in the last second no longer makes its reader wait among the bookings. With quick loads
/// (a quiet database) a reader past the age waits for the fresh read, as before;</item>
/// <item>while the loads are many (<see cref="ManyLoads"/> or more a second: every reader of a place not
/// read in the last second makes a query), the same: an entry younger than <see cref="MaxStale"/>
/// answers at once. An entry read rarely (no read in the <see cref="MaxAge"/> before this one) is then
/// read again behind its reader only from <see cref="RarelyReadAge"/> on: in a stampede most places are
/// read once in several seconds, and a load for each of those readers was most of the database's work.
/// A quiet instance makes few loads, and its readers past the age wait for the fresh read;</item>
/// <item>a fresh instance holds the first week of every place from one read (<see cref="HoldAsync"/>),
/// so the first read of a place is not a query among the bookings either;</item>
/// <item>this instance's own answers are applied at once: a booking takes a seat, a "slot full"
/// empties the slot; a cancellation or a move, whose slots the answer does not name, drops the
/// entries so the next read asks the database;</item>
/// <item>booking stays the authority: a pick from a stale entry gets a 409 with fresh alternatives.</item>
/// </list>
/// </summary>
public sealed partial class AvailabilitySnapshot(IReservationStore store, TimeProvider clock)
{
    /// <summary>How stale a place's entry may get before the next read asks the database again.</summary>
    public static readonly TimeSpan MaxAge = TimeSpan.FromSeconds(1);

    /// <summary>From this age on, a read of the entry starts its next load behind it.</summary>
    public static readonly TimeSpan RefreshAge = MaxAge * 3 / 4;

    /// <summary>
    /// Past <see cref="MaxAge"/>, an entry whose next load is under way, or any entry while loads are slow, still answers
    /// until this age; after it, readers wait for a load.
    /// </summary>
    public static readonly TimeSpan MaxStale = TimeSpan.FromSeconds(60);

    /// <summary>
    /// An entry whose last read came longer than <see cref="MaxAge"/> before is read again behind its reader only from this
    /// age on (one read often is read again from <see cref="RefreshAge"/>). In a stampede the places outside the popular
    /// few were each read once in 10 s or so per instance, and each of those reads loaded its place again behind it: 94 % of
    /// the loads, the database's largest statement, 2.7 times the bookings' (docs/benchmarks.md, "The stampede timed at the
    /// socket"). Well short of <see cref="MaxStale"/>, so a place read every few tens of seconds never makes a reader wait.
    /// </summary>
    public static readonly TimeSpan RarelyReadAge = TimeSpan.FromSeconds(20);

    /// <summary>
    /// Loads started in a second (this one or the one before) from which old entries answer rather than make readers wait:
    /// each costs the database a millisecond or two, and a stampede's readers spread over the places started a hundred a
    /// second per instance. A quiet day's few readers stay current to the second.
    /// </summary>
    public const int ManyLoads = 20;

    /// <summary>Loads that take this long on average mean a busy database: old entries answer rather than make readers wait.</summary>
    public static readonly TimeSpan SlowLoad = TimeSpan.FromMilliseconds(20);

    // Popular places stay; once this many are held, entries past their age make room.
    private const int MaxPlaces = 2000;

    private readonly ConcurrentDictionary<int, Entry> _entries = new();
    private readonly ConcurrentDictionary<int, Task<Entry>> _loading = new();
    private readonly ConcurrentDictionary<int, long> _asked = new();
    private long _loadMicros;   // the loads' duration, a moving average
    private long _loadSecond;   // the second (of the clock's timestamps) whose loads _loadsInSecond counts
    private int _loadsInSecond;
    private int _loadsSecondBefore;
    private Task? _held;

    /// <summary>
    /// Slots of a place in [from, to], all inside its hot days [hotFrom, hotTo], with their free seats.
    /// </summary>
    public async Task<IReadOnlyList<SlotAvailability>> GetAsync(int placeId, DateOnly from, DateOnly to, DateOnly hotFrom, DateOnly hotTo, CancellationToken ct)
    {
        if (from < hotFrom || to > hotTo)
        {
            return await store.GetAvailabilityAsync(placeId, from, to, ct);
        }
        var now = clock.GetTimestamp();
        if (!_entries.TryGetValue(placeId, out var entry) || !entry.Holds(hotFrom, hotTo, to) || !Answers(placeId, entry, now))
        {
            if (entry is null && !_loading.ContainsKey(placeId) && FirstAskSince(placeId))
            {
                return await store.GetAvailabilityAsync(placeId, from, to, ct);
            }
            // Its readers take what the load read, even when the query outlasted the entry's age (a slow database).
            entry = await LoadAsync(placeId, hotFrom, hotTo, Reach(entry, hotFrom, hotTo, to));
            if (!entry.Holds(hotFrom, hotTo, to))
            {
                // A load already under way stopped short of this read's days; the next one reaches them.
                entry = await LoadAsync(placeId, hotFrom, hotTo, Reach(entry, hotFrom, hotTo, to));
                if (!entry.Holds(hotFrom, hotTo, to))
                {
                    return await store.GetAvailabilityAsync(placeId, from, to, ct);
                }
            }
        }
        else if (clock.GetElapsedTime(entry.LoadedAt, now) >= (ReadLately(entry, now) ? RefreshAge : RarelyReadAge) && !_loading.ContainsKey(placeId))
        {
            // Its failure is met by the reader that finds the entry past its age and waits for a load of its own.
            _ = LoadAsync(placeId, hotFrom, hotTo, Reach(entry, hotFrom, hotTo, to)).ContinueWith(static load => _ = load.Exception, CancellationToken.None,
                TaskContinuationOptions.OnlyOnFaulted | TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        }
        entry.Read(now);
        entry.Reached(to);
        return entry.Slice(from, to);
    }

    /// <summary>Whether the entry's last read (before this one) came within <see cref="MaxAge"/>: a place read often.</summary>
    private bool ReadLately(Entry entry, long now) => entry.ReadAt is var at && at != Entry.NeverRead && clock.GetElapsedTime(at, now) < MaxAge;

    /// <summary>
    /// What the place's days up to <paramref name="to"/> look like to this instance right now, as a value that changes
    /// whenever an answer read from them could: the entry is reloaded, dropped, or one of its counts changes. Null when
    /// no entry of the place holds those days and may answer a read now (the next read asks the database). Answers built
    /// from the entry may be reused while the stamp stays the same.
    /// </summary>
    public SnapshotStamp? Stamp(int placeId, DateOnly hotFrom, DateOnly hotTo, DateOnly to) =>
        _entries.TryGetValue(placeId, out var entry) && entry.Holds(hotFrom, hotTo, to) && Answers(placeId, entry, clock.GetTimestamp())
            ? new SnapshotStamp(entry, entry.Version)
            : null;

    /// <summary>
    /// The last day a load of the place holds: the end of the whole week (from <paramref name="hotFrom"/>) that takes in
    /// <paramref name="to"/> and the days the entry's readers reached since it was loaded, at most <paramref name="hotTo"/>.
    /// </summary>
    private static DateOnly Reach(Entry? entry, DateOnly hotFrom, DateOnly hotTo, DateOnly to)
    {
        var last = entry is not null && entry.From == hotFrom && entry.Reach > to ? entry.Reach : to;
        var weeks = (last.DayNumber - hotFrom.DayNumber) / 7 + 1;
        var end = hotFrom.AddDays(weeks * 7 - 1);
        return end < hotTo ? end : hotTo;
    }

    /// <summary>This instance booked a seat of the slot.</summary>
    public void Taken(SlotKey slot) => Change(slot, free => Math.Max(0, free - 1));

    /// <summary>This instance found the slot full.</summary>
    public void Full(SlotKey slot) => Change(slot, _ => 0);

    /// <summary>Seats were freed or moved somewhere this instance cannot name: every entry is read again.</summary>
    public void Forget() => _entries.Clear();

    private void Change(SlotKey slot, Func<int, int> free)
    {
        if (_entries.TryGetValue(slot.PlaceId, out var entry))
        {
            entry.Change(slot, free);
        }
    }

    private bool IsOld(Entry entry) => clock.GetElapsedTime(entry.LoadedAt) >= MaxAge;

    /// <summary>
    /// Whether a read may be answered from the entry now: within its age; or, not yet stale, while its next load is under
    /// way or the loads are slow.
    /// </summary>
    private bool Answers(int placeId, Entry entry, long now)
    {
        var age = clock.GetElapsedTime(entry.LoadedAt, now);
        return age < MaxAge || (age < MaxStale && (_loading.ContainsKey(placeId) || LoadsAreSlow || ManyLoadsAt(now)));
    }

    /// <summary>Whether the loads lately took <see cref="SlowLoad"/> or more on average.</summary>
    public bool LoadsAreSlow => Interlocked.Read(ref _loadMicros) >= (long)SlowLoad.TotalMicroseconds;

    /// <summary>Whether <see cref="ManyLoads"/> or more loads started in this second or the one before.</summary>
    public bool LoadsAreMany => ManyLoadsAt(clock.GetTimestamp());

    private bool ManyLoadsAt(long now)
    {
        var second = now / clock.TimestampFrequency;
        var counted = Interlocked.Read(ref _loadSecond);
        return second == counted ? Math.Max(Volatile.Read(ref _loadsInSecond), Volatile.Read(ref _loadsSecondBefore)) >= ManyLoads
            : second == counted + 1 && Volatile.Read(ref _loadsInSecond) >= ManyLoads;
    }

    private void Counted(long now)
    {
        var second = now / clock.TimestampFrequency;
        var counted = Interlocked.Read(ref _loadSecond);
        if (second > counted && Interlocked.CompareExchange(ref _loadSecond, second, counted) == counted)
        {
            // A second with no load between them leaves nothing before this one.
            var before = Interlocked.Exchange(ref _loadsInSecond, 0);
            Volatile.Write(ref _loadsSecondBefore, second == counted + 1 ? before : 0);
        }
        Interlocked.Increment(ref _loadsInSecond);
    }

    private void Timed(TimeSpan load)
    {
        // A quarter of each new load: a few quick loads after a busy spell make readers wait for fresh reads again.
        var seen = Interlocked.Read(ref _loadMicros);
        Interlocked.Exchange(ref _loadMicros, seen + ((long)load.TotalMicroseconds - seen) / 4);
    }

    /// <summary>Whether <see cref="HoldAsync"/> has held its days (a later call reads nothing).</summary>
    public bool Held => Volatile.Read(ref _held) is { IsCompletedSuccessfully: true };

    /// <summary>
    /// Holds the days of each place in <paramref name="days"/> (its hot window's first day, that window's last, and the last
    /// day to hold) from <paramref name="rows"/>: every place's slots in (place, day, time, service) order, read once. A
    /// place that has an entry already keeps it. Done once per instance; a failed read is tried again by the next call.
    /// </summary>
    public Task HoldAsync(IAsyncEnumerable<SlotAvailability> rows, IReadOnlyDictionary<int, (DateOnly HotFrom, DateOnly HotTo, DateOnly Last)> days)
    {
        var held = Volatile.Read(ref _held);
        while (held is null || held.IsFaulted || held.IsCanceled)
        {
            var mine = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            if (Interlocked.CompareExchange(ref _held, mine.Task, held) == held)
            {
                _ = FillHeldAsync(rows, days, mine);
                return mine.Task;
            }
            held = Volatile.Read(ref _held);
        }
        return held;
    }

    private async Task FillHeldAsync(IAsyncEnumerable<SlotAvailability> rows, IReadOnlyDictionary<int, (DateOnly HotFrom, DateOnly HotTo, DateOnly Last)> days,
        TaskCompletionSource done)
    {
        try
        {
            var started = clock.GetTimestamp();
            var read = new Dictionary<int, List<SlotAvailability>>();
            // Not a caller's token: the read is shared by every readiness check waiting for it.
            await foreach (var slot in rows.WithCancellation(CancellationToken.None))
            {
                if (days.TryGetValue(slot.Slot.PlaceId, out var d) && slot.Slot.Day >= d.HotFrom && slot.Slot.Day <= d.Last)
                {
                    (CollectionsMarshal.GetValueRefOrAddDefault(read, slot.Slot.PlaceId, out _) ??= []).Add(slot);
                }
            }
            foreach (var (placeId, slots) in read)
            {
                if (_entries.Count >= MaxPlaces)
                {
                    break;
                }
                var d = days[placeId];
                _entries.TryAdd(placeId, new Entry(d.HotFrom, d.HotTo, d.Last, [.. slots], started));
            }
            done.SetResult();
        }
        catch (Exception ex)
        {
            done.SetException(ex);
        }
    }

    /// <summary>Whether no read of the place came within <see cref="MaxAge"/>; notes this one.</summary>
    private bool FirstAskSince(int placeId)
    {
        var now = clock.GetTimestamp();
        var previous = _asked.GetValueOrDefault(placeId, long.MinValue);
        _asked[placeId] = now;
        if (_asked.Count >= MaxPlaces * 4)
        {
            foreach (var (id, at) in _asked)
            {
                if (clock.GetElapsedTime(at, now) >= MaxAge)
                {
                    _asked.TryRemove(id, out _);
                }
            }
        }
        return previous == long.MinValue || clock.GetElapsedTime(previous, now) >= MaxAge;
    }

    /// <summary>Loads the place's days [hotFrom, last] of the hot window [hotFrom, hotTo]; concurrent loads of the place share one query.</summary>
    private Task<Entry> LoadAsync(int placeId, DateOnly hotFrom, DateOnly hotTo, DateOnly last)
    {
        var mine = new TaskCompletionSource<Entry>(TaskCreationOptions.RunContinuationsAsynchronously);
        var loading = _loading.GetOrAdd(placeId, mine.Task);
        if (!ReferenceEquals(loading, mine.Task))
        {
            return loading;
        }
        _ = FillAsync(placeId, hotFrom, hotTo, last, mine);
        return mine.Task;
    }

    private async Task FillAsync(int placeId, DateOnly hotFrom, DateOnly hotTo, DateOnly last, TaskCompletionSource<Entry> done)
    {
        try
        {
            // Not a caller's token: the query is shared by every reader waiting for it.
            var started = clock.GetTimestamp();
            Counted(started);
            var slots = await store.GetAvailabilityAsync(placeId, hotFrom, last, CancellationToken.None);
            Timed(clock.GetElapsedTime(started));
            // The same slots read again keep their entry, so its stamp moves only if a count did: the answers built from it
            // stay while the place's seats stay as they were (a sold-out week read by a crowd is built once, not each load).
            var entry = _entries.TryGetValue(placeId, out var held) && held.Refresh(hotFrom, hotTo, last, slots, started)
                ? held
                : new Entry(hotFrom, hotTo, last, slots as SlotAvailability[] ?? [.. slots], started, held?.ReadAt ?? Entry.NeverRead);
            if (_entries.Count >= MaxPlaces)
            {
                foreach (var (id, old) in _entries)
                {
                    if (IsOld(old))
                    {
                        _entries.TryRemove(id, out _);
                    }
                }
            }
            _entries[placeId] = entry;
            // Done loading before its readers go on: one that needs more days starts the next load, not this one again.
            _loading.TryRemove(placeId, out _);
            done.SetResult(entry);
        }
        catch (Exception ex)
        {
            _loading.TryRemove(placeId, out _);
            done.SetException(ex);
        }
    }
}

/// <summary>One state of a place's entry in <see cref="AvailabilitySnapshot"/>: equal stamps, equal answers.</summary>
public readonly record struct SnapshotStamp(object Entry, long Version);
