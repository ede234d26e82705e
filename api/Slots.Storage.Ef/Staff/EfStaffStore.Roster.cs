using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reservations;
using Slots.Staff;

namespace Slots.Storage.Ef.Staff;

/// <summary>
/// A page of the roster. On a hot day the active bookings (most of the day) are filtered, counted, ordered and
/// cut to the page in the database, so a page of 100 reads about 100 of them however many the day holds; the
/// cancelled ones, few unless a block went, are read whole and merged in the roster's order (RosterSelection).
/// </summary>
public abstract partial class EfStaffStore
{
    public async Task<RosterPage> RosterAsync(RosterQuery query, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        if (!await IsHotAsync(db, query.PlaceId, query.Day, ct))
        {
            var day = await DayLinesAsync(db, query.PlaceId, query.Day, hot: false, ct);
            var selection = RosterSelection.Of([.. day.Values.Select(l => l.Entry())], query);
            return new RosterPage([.. selection.Page.Select(e => day[e.Code].Row(e))], selection.Total, selection.Counts);
        }

        var active = Active(db, query.PlaceId, query.Day);
        var byState = await active.GroupBy(l => l.State).Select(g => new { State = g.Key, Count = g.Count() }).ToListAsync(ct);

        // The page can hold only the active bookings up to its end in their own order: no more are read.
        var end = (int)Math.Min(int.MaxValue, ((long)query.Page * query.PageSize));
        var matching = Matching(active, query);
        var lines = await matching.OrderBy(l => l.StartMinute).ThenBy(l => l.SeatNo).ThenBy(l => l.State).ThenBy(l => l.Code)
            .Take(end).ToListAsync(ct);
        // How many active ones match: all of the page when it is not full; else, without a filter beyond the
        // state, the count of that state already read; else counted.
        var wholeDay = query is { FromMinute: <= 0, ToMinute: >= 24 * 60 - 1, Code: null, ServiceId: null };
        var activeTotal = lines.Count < end ? lines.Count
            : wholeDay ? byState.Where(s => query.State is null || s.State == (int)query.State).Sum(s => s.Count)
            : await matching.CountAsync(ct);

        var cancelled = await CancelledLinesAsync(db, query.PlaceId, query.Day, await MinutesAsync(db, query.PlaceId, query.Day, ct), ct);
        var cancelledCount = cancelled.Count;
        var candidates = WithActive(cancelled, lines);
        var page = RosterSelection.Of([.. candidates.Values.Select(l => l.Entry())], query);
        var counts = new RosterCounts(
            byState.Where(s => s.State == (int)RosterState.Booked).Sum(s => s.Count),
            byState.Where(s => s.State == (int)RosterState.CheckedIn).Sum(s => s.Count),
            byState.Where(s => s.State == (int)RosterState.NoShow).Sum(s => s.Count),
            byState.Where(s => s.State is (int)RosterState.Cancelled or (int)RosterState.CancelledBySite).Sum(s => s.Count) + cancelledCount);
        return new RosterPage([.. page.Page.Select(e => candidates[e.Code].Row(e))], page.Total - lines.Count + activeTotal, counts);
    }

    /// <summary>
    /// Every booking of the day by code: on a hot day its active hot rows and its cancels; on another day its disk
    /// rows, active and cancelled.
    /// </summary>
    private static async Task<Dictionary<string, Line>> DayLinesAsync(SlotsDbContext db, int placeId, DateOnly day, bool hot, CancellationToken ct)
    {
        var minutes = await MinutesAsync(db, placeId, day, ct);
        if (hot)
        {
            return WithActive(await CancelledLinesAsync(db, placeId, day, minutes, ct), await Active(db, placeId, day).ToListAsync(ct));
        }
        var disk = await Disk(db, placeId, day).ToListAsync(ct);
        foreach (var line in disk)
        {
            line.Minutes = minutes.GetValueOrDefault((line.StartMinute, line.ServiceId));
        }
        return disk.ToDictionary(l => l.Code, StringComparer.Ordinal);
    }

    /// <summary>The slots' lengths of the day, keyed by start and service: two services of the place may start at the same minute.</summary>
    private static Task<Dictionary<(int StartMinute, int ServiceId), int>> MinutesAsync(SlotsDbContext db, int placeId, DateOnly day, CancellationToken ct) =>
        db.Slots.AsNoTracking().Where(s => s.PlaceId == placeId && s.Day == day)
            .ToDictionaryAsync(s => (s.StartMinute, s.ServiceId), s => s.Minutes, ct);

    /// <summary>A hot day's cancels by code: flushed to disk, or still a change record waiting for the flush (the disk row wins).</summary>
    private static async Task<Dictionary<string, Line>> CancelledLinesAsync(SlotsDbContext db, int placeId, DateOnly day,
        Dictionary<(int StartMinute, int ServiceId), int> minutes, CancellationToken ct)
    {
        var cancelled = (await Cancelled(db, placeId, day).ToListAsync(ct)).ToDictionary(l => l.Code, StringComparer.Ordinal);
        foreach (var line in await WaitingCancels(db, placeId, day).ToListAsync(ct))
        {
            cancelled.TryAdd(line.Code, line);
        }
        foreach (var line in cancelled.Values)
        {
            line.Minutes = minutes.GetValueOrDefault((line.StartMinute, line.ServiceId));
        }
        return cancelled;
    }

    /// <summary>
    /// The cancels with the active bookings added. The reads are not one snapshot: a booking cancelled between
    /// them is taken as cancelled.
    /// </summary>
    private static Dictionary<string, Line> WithActive(Dictionary<string, Line> cancelled, IEnumerable<Line> active)
    {
        foreach (var line in active)
        {
            cancelled.TryAdd(line.Code, line);
        }
        return cancelled;
    }

    /// <summary>
    /// Whether the day's bookings are the hot rows: the hot tables hold today (in the place's zone) up to the
    /// horizon; a day before their first is evicted, and its bookings are read from disk like a day beyond it.
    /// </summary>
    private static async Task<bool> IsHotAsync(SlotsDbContext db, int placeId, DateOnly day, CancellationToken ct)
    {
        var horizon = await db.Places.AsNoTracking().Where(p => p.Id == placeId).Select(p => p.HotUntil).SingleOrDefaultAsync(ct);
        if (day >= horizon)
        {
            return false;
        }
        var first = await db.HotSeats.AsNoTracking().Where(s => s.PlaceId == placeId).MinAsync(s => (DateOnly?)s.Day, ct);
        return first is { } from && day >= from;
    }

    /// <summary>
    /// The day's active hot bookings with the door's mark, found through the day's seats (one range of the
    /// seats' key) and then by code: hot_reservations has no index on place and day, and one would cost
    /// every booking a write.
    /// </summary>
    private static IQueryable<Line> Active(SlotsDbContext db, int placeId, DateOnly day) =>
        from s in db.HotSeats.AsNoTracking()
        where s.PlaceId == placeId && s.Day == day && s.Code != null
        join r in db.HotReservations.AsNoTracking() on s.Code equals r.Code
        join mark in db.Attendance.AsNoTracking() on r.Code equals mark.Code into marks
        from a in marks.DefaultIfEmpty()
        select new Line
        {
            Code = r.Code,
            StartMinute = r.StartMinute,
            ServiceId = r.ServiceId,
            Minutes = r.Minutes,
            SeatNo = r.SeatNo,
            State = a == null ? (int)RosterState.Booked : a.State,
            At = a == null ? null : a.At,
            By = a == null ? null : a.By,
            Name = r.Name,
            Phone = r.Phone,
            Language = r.Language,
        };

    private static IQueryable<Line> Matching(IQueryable<Line> lines, RosterQuery query)
    {
        lines = lines.Where(l => l.StartMinute >= query.FromMinute && l.StartMinute <= query.ToMinute);
        if (query.State is { } state)
        {
            lines = lines.Where(l => l.State == (int)state);
        }
        if (query.Code is { } code)
        {
            lines = lines.Where(l => l.Code == code);
        }
        if (query.ServiceId is { } service)
        {
            lines = lines.Where(l => l.ServiceId == service);
        }
        return lines;
    }

    /// <summary>The day's cancelled bookings flushed to disk: by the site when the door's record says so (with who did it), by the citizen otherwise.</summary>
    private static IQueryable<Line> Cancelled(SlotsDbContext db, int placeId, DateOnly day) =>
        from r in db.Reservations.AsNoTracking()
        where r.PlaceId == placeId && r.Day == day && r.CancelledAt != null
        join mark in db.Attendance.AsNoTracking() on r.Code equals mark.Code into marks
        from a in marks.DefaultIfEmpty()
        let bySite = a != null && a.State == (int)RosterState.CancelledBySite
        select new Line
        {
            Code = r.Code,
            StartMinute = r.StartMinute,
            ServiceId = r.ServiceId,
            SeatNo = r.SeatNo,
            State = bySite ? (int)RosterState.CancelledBySite : (int)RosterState.Cancelled,
            At = bySite ? a!.At : r.CancelledAt,
            By = bySite ? a!.By : null,
            Name = r.Name,
            Phone = r.Phone,
            Language = r.Language,
        };

    /// <summary>The day's cancels still waiting for the flush as change records.</summary>
    private static IQueryable<Line> WaitingCancels(SlotsDbContext db, int placeId, DateOnly day) =>
        from c in db.Changes.AsNoTracking()
        where c.Kind == (int)ChangeKind.Cancelled && c.PlaceId == placeId && c.Day == day
        join mark in db.Attendance.AsNoTracking() on c.Code equals mark.Code into marks
        from a in marks.DefaultIfEmpty()
        let bySite = a != null && a.State == (int)RosterState.CancelledBySite
        select new Line
        {
            Code = c.Code,
            StartMinute = c.StartMinute,
            ServiceId = c.ServiceId,
            SeatNo = c.SeatNo,
            State = bySite ? (int)RosterState.CancelledBySite : (int)RosterState.Cancelled,
            At = bySite ? a!.At : c.At,
            By = bySite ? a!.By : null,
            Name = c.Name,
            Phone = c.Phone,
            Language = c.Language,
        };

    /// <summary>
    /// A day outside the hot window from disk: active with the door's mark, or cancelled (by the site when the
    /// door's record says so, by the citizen otherwise).
    /// </summary>
    private static IQueryable<Line> Disk(SlotsDbContext db, int placeId, DateOnly day) =>
        from r in db.Reservations.AsNoTracking()
        where r.PlaceId == placeId && r.Day == day
        join mark in db.Attendance.AsNoTracking() on r.Code equals mark.Code into marks
        from a in marks.DefaultIfEmpty()
        let bySite = a != null && a.State == (int)RosterState.CancelledBySite
        select new Line
        {
            Code = r.Code,
            StartMinute = r.StartMinute,
            ServiceId = r.ServiceId,
            SeatNo = r.SeatNo,
            State = r.CancelledAt == null ? (a == null ? (int)RosterState.Booked : a.State)
                : bySite ? (int)RosterState.CancelledBySite : (int)RosterState.Cancelled,
            At = r.CancelledAt == null ? (a == null ? null : (long?)a.At) : bySite ? a!.At : r.CancelledAt,
            By = r.CancelledAt == null ? (a == null ? null : a.By) : bySite ? a!.By : null,
            Name = r.Name,
            Phone = r.Phone,
            Language = r.Language,
        };

    /// <summary>A roster line as the database gives it: the booking, the door's mark and the person.</summary>
    private sealed class Line
    {
        public required string Code { get; init; }
        public int StartMinute { get; init; }
        public int ServiceId { get; init; }
        public int Minutes { get; set; }
        public int SeatNo { get; init; }
        public int State { get; init; }
        public long? At { get; init; }
        public string? By { get; init; }
        public required string Name { get; init; }
        public required string Phone { get; init; }
        public required string Language { get; init; }

        public RosterEntry Entry() =>
            new(Code, StartMinute, Minutes, SeatNo, ServiceId, (RosterState)State, At is { } at ? DateTimeOffset.FromUnixTimeSeconds(at) : null, By);

        public RosterRow Row(RosterEntry entry) => entry.With(Name, Phone, Language);
    }
}
