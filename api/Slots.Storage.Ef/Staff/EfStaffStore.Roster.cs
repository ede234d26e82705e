using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reservations;
using Slots.Staff;

namespace Slots.Storage.Ef.Staff;

/// <summary>
/// A page of the roster. On a hot day the day's booked seats say which bookings are active and where they sit, and
/// the door's marks made for the day say how they stand: one range of an index each, and no booking looked up. They
/// are counted, filtered, ordered and paged with the day's cancels (RosterSelection), and only the page's bookings then
/// bring their people from the hot rows. A mark belongs to the day it was made for: a booking checked in and then
/// moved to another day is booked there, on the hot days and on disk alike.
/// </summary>
public abstract partial class EfStaffStore
{
    public async Task<RosterPage> RosterAsync(RosterQuery query, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        if (!await IsHotAsync(db, query.PlaceId, query.Day, ct))
        {
            var day = await DiskLinesAsync(db, query.PlaceId, query.Day, ct);
            var selection = RosterSelection.Of([.. day.Values.Select(l => l.Entry())], query);
            return new RosterPage([.. selection.Page.Select(e => day[e.Code].Row(e))], selection.Total, selection.Counts);
        }

        var (entries, cancelled) = await HotDayAsync(db, query.PlaceId, query.Day, ct);
        var page = RosterSelection.Of(entries, query);
        var wanted = page.Page.Where(e => !cancelled.ContainsKey(e.Code)).Select(e => e.Code).ToArray();
        var people = wanted.Length == 0 ? [] : await PeopleAsync(db, wanted, ct);
        var rows = new List<RosterRow>(page.Page.Count);
        foreach (var entry in page.Page)
        {
            if (cancelled.TryGetValue(entry.Code, out var line))
            {
                rows.Add(line.Row(entry));
            }
            else if (people.TryGetValue(entry.Code, out var person))
            {
                rows.Add(entry.With(person.Name, person.Phone, person.Language));
            }
            // Else cancelled after the cancels were read: its person is gone, and it is left out of this page.
        }
        return new RosterPage(rows, page.Total, page.Counts);
    }

    /// <summary>
    /// A hot day's bookings without their people: the booked seats with the door's marks, read first, and the cancels
    /// after them, which win, so a booking cancelled between the two reads is taken as cancelled.
    /// </summary>
    private static async Task<(List<RosterEntry> Entries, Dictionary<string, Line> Cancelled)> HotDayAsync(SlotsDbContext db, int placeId, DateOnly day,
        CancellationToken ct)
    {
        var seated = await SeatedAsync(db, placeId, day, ct);
        var marks = await DayMarksAsync(db, placeId, day, ct);
        var cancelled = await CancelledLinesAsync(db, placeId, day, ct);
        var entries = new List<RosterEntry>(seated.Count + cancelled.Count);
        entries.AddRange(cancelled.Values.Select(l => l.Entry()));
        entries.AddRange(seated.Where(s => !cancelled.ContainsKey(s.Code)).Select(s => s.Entry(marks.GetValueOrDefault(s.Code))));
        return (entries, cancelled);
    }

    /// <summary>A day outside the hot window by code, active and cancelled, from disk.</summary>
    private static async Task<Dictionary<string, Line>> DiskLinesAsync(SlotsDbContext db, int placeId, DateOnly day, CancellationToken ct)
    {
        var minutes = await MinutesAsync(db, placeId, day, ct);
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

    /// <summary>
    /// A hot day's cancels by code: flushed to disk, or still a change record waiting for the flush (the disk row wins);
    /// the slots' lengths are read only when there is one.
    /// </summary>
    private static async Task<Dictionary<string, Line>> CancelledLinesAsync(SlotsDbContext db, int placeId, DateOnly day, CancellationToken ct)
    {
        var lines = await CancelsAsync(db, placeId, day, ct);
        var cancelled = new Dictionary<string, Line>(lines.Count, StringComparer.Ordinal);
        foreach (var line in lines.Where(l => l.FromDisk).Concat(lines.Where(l => !l.FromDisk)))
        {
            cancelled.TryAdd(line.Code, line);
        }
        if (cancelled.Count > 0)
        {
            var minutes = await MinutesAsync(db, placeId, day, ct);
            foreach (var line in cancelled.Values)
            {
                line.Minutes = minutes.GetValueOrDefault((line.StartMinute, line.ServiceId));
            }
        }
        return cancelled;
    }

    /// <summary>
    /// Whether the day's bookings are the hot rows: the hot tables hold today (in the place's zone) up to the
    /// horizon; a day before their first is evicted, and its bookings are read from disk like a day beyond it.
    /// </summary>
    private static async Task<bool> IsHotAsync(SlotsDbContext db, int placeId, DateOnly day, CancellationToken ct) =>
        await WindowAsync(db, placeId, ct) is { First: { } from } window && day >= from && day < window.HotUntil;

    /// <summary>
    /// A day outside the hot window from disk: active with the door's mark, or cancelled (by the site when the
    /// door's record says so, by the citizen otherwise).
    /// </summary>
    private static IQueryable<Line> Disk(SlotsDbContext db, int placeId, DateOnly day) =>
        from r in db.Reservations.AsNoTracking()
        where r.PlaceId == placeId && r.Day == day
        join mark in db.Attendance.AsNoTracking() on r.Code equals mark.Code into marks
        from a in marks.DefaultIfEmpty()
        let ofTheDay = a != null && a.PlaceId == placeId && a.Day == day
        let bySite = a != null && a.State == (int)RosterState.CancelledBySite
        select new Line
        {
            Code = r.Code,
            StartMinute = r.StartMinute,
            ServiceId = r.ServiceId,
            SeatNo = r.SeatNo,
            State = r.CancelledAt == null ? (ofTheDay ? a!.State : (int)RosterState.Booked)
                : bySite ? (int)RosterState.CancelledBySite : (int)RosterState.Cancelled,
            At = r.CancelledAt == null ? (ofTheDay ? (long?)a!.At : null) : bySite ? a!.At : r.CancelledAt,
            By = r.CancelledAt == null ? (ofTheDay ? a!.By : null) : bySite ? a!.By : null,
            Name = r.Name,
            Phone = r.Phone,
            Language = r.Language,
        };

    /// <summary>A roster line as the database gives it: the booking, the door's mark and the person.</summary>
    public sealed class Line
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

        /// <summary>A cancel flushed to disk, or one still waiting as a change record.</summary>
        public bool FromDisk { get; init; }

        public RosterEntry Entry() =>
            new(Code, StartMinute, Minutes, SeatNo, ServiceId, (RosterState)State, At is { } at ? DateTimeOffset.FromUnixTimeSeconds(at) : null, By);

        public RosterRow Row(RosterEntry entry) => entry.With(Name, Phone, Language);
    }

    /// <summary>A booked hot seat, as the database gives it.</summary>
    public sealed record SeatedBooking(string Code, int StartMinute, int ServiceId, int Minutes, int SeatNo)
    {
        /// <summary>The booking on the roster: booked, or as the door's mark of its day says.</summary>
        public RosterEntry Entry(Mark? mark) => mark is null
            ? new(Code, StartMinute, Minutes, SeatNo, ServiceId, RosterState.Booked, null, null)
            : new(Code, StartMinute, Minutes, SeatNo, ServiceId, (RosterState)mark.State, DateTimeOffset.FromUnixTimeSeconds(mark.At), mark.By);
    }

    /// <summary>The door's mark of a booking: its state, when and by whom.</summary>
    public sealed record Mark(string Code, int State, long At, string By);

    public sealed record Person(string Code, string Name, string Phone, string Language);

    /// <summary>A place's hot window: the horizon (not hot from it on) and the first hot day, none when it has no hot seats.</summary>
    public sealed record HotWindow(DateOnly HotUntil, DateOnly? First);
}
