using System.Linq.Expressions;
using Microsoft.EntityFrameworkCore;
using Slots.Reservations;
using Slots.Staff;

namespace Slots.Storage.Ef.Staff;

/// <summary>
/// The hot roster's reads, compiled once (EF.CompileAsyncQuery): a page read by a door's staff many times a minute then
/// costs no walk of the query's expression tree and no look-up of its translation. Each is also an IQueryable
/// (Window, Seated, ...) for the SQL Server tests that read what the provider writes.
/// </summary>
public abstract partial class EfStaffStore
{
    /// <summary>A place's hot window in one query: its horizon and the first day its hot seats hold.</summary>
    private static readonly Expression<Func<SlotsDbContext, int, IQueryable<HotWindow>>> WindowQuery = (db, placeId) =>
        db.Places.AsNoTracking().Where(p => p.Id == placeId)
            .Select(p => new HotWindow(p.HotUntil, db.HotSeats.Where(s => s.PlaceId == placeId).Min(s => (DateOnly?)s.Day)));

    /// <summary>
    /// The day's booked hot seats: one range of the seats' key. The seat holds all the roster orders and filters by,
    /// so no hot row is read for it.
    /// </summary>
    private static readonly Expression<Func<SlotsDbContext, int, DateOnly, IQueryable<SeatedBooking>>> SeatedQuery = (db, placeId, day) =>
        db.HotSeats.AsNoTracking().Where(s => s.PlaceId == placeId && s.Day == day && s.Code != null)
            .Select(s => new SeatedBooking(s.Code!, s.StartMinute, s.ServiceId, s.Minutes, s.SeatNo));

    /// <summary>
    /// The door's marks made for a place's day: one range of their own index, where looking each booking's mark up by
    /// its code would be a probe per booking.
    /// </summary>
    private static readonly Expression<Func<SlotsDbContext, int, DateOnly, IQueryable<Mark>>> DayMarksQuery = (db, placeId, day) =>
        db.Attendance.AsNoTracking().Where(a => a.PlaceId == placeId && a.Day == day).Select(a => new Mark(a.Code, a.State, a.At, a.By));

    /// <summary>
    /// A hot day's cancels in one query: flushed to disk, and still waiting for the flush as change records; by the
    /// site when the door's record says so (with who did it), by the citizen otherwise.
    /// </summary>
    private static readonly Expression<Func<SlotsDbContext, int, DateOnly, IQueryable<Line>>> CancelsQuery = (db, placeId, day) =>
        (from r in db.Reservations.AsNoTracking()
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
             FromDisk = true,
         }).Concat(
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
            FromDisk = false,
        });

    /// <summary>The page's people from their hot rows, by code.</summary>
    private static readonly Expression<Func<SlotsDbContext, string[], IQueryable<Person>>> PeopleQuery = (db, codes) =>
        db.HotReservations.AsNoTracking().Where(r => codes.Contains(r.Code)).Select(r => new Person(r.Code, r.Name, r.Phone, r.Language));

    private static readonly Func<SlotsDbContext, int, IAsyncEnumerable<HotWindow>> WindowRead = EF.CompileAsyncQuery(WindowQuery);
    private static readonly Func<SlotsDbContext, int, DateOnly, IAsyncEnumerable<SeatedBooking>> SeatedRead = EF.CompileAsyncQuery(SeatedQuery);
    private static readonly Func<SlotsDbContext, int, DateOnly, IAsyncEnumerable<Mark>> DayMarksRead = EF.CompileAsyncQuery(DayMarksQuery);
    private static readonly Func<SlotsDbContext, int, DateOnly, IAsyncEnumerable<Line>> CancelsRead = EF.CompileAsyncQuery(CancelsQuery);
    private static readonly Func<SlotsDbContext, string[], IAsyncEnumerable<Person>> PeopleRead = EF.CompileAsyncQuery(PeopleQuery);

    public static IQueryable<HotWindow> Window(SlotsDbContext db, int placeId) => WindowQuery.Compile()(db, placeId);

    public static IQueryable<SeatedBooking> Seated(SlotsDbContext db, int placeId, DateOnly day) => SeatedQuery.Compile()(db, placeId, day);

    public static IQueryable<Mark> DayMarks(SlotsDbContext db, int placeId, DateOnly day) => DayMarksQuery.Compile()(db, placeId, day);

    public static IQueryable<Line> Cancels(SlotsDbContext db, int placeId, DateOnly day) => CancelsQuery.Compile()(db, placeId, day);

    public static IQueryable<Person> People(SlotsDbContext db, string[] codes) => PeopleQuery.Compile()(db, codes);

    private static async Task<HotWindow?> WindowAsync(SlotsDbContext db, int placeId, CancellationToken ct)
    {
        await foreach (var window in WindowRead(db, placeId).WithCancellation(ct))
        {
            return window; // the place's key: one row or none
        }
        return null;
    }

    private static async Task<List<SeatedBooking>> SeatedAsync(SlotsDbContext db, int placeId, DateOnly day, CancellationToken ct) =>
        await SeatedRead(db, placeId, day).ToListAsync(ct);

    private static async Task<List<Line>> CancelsAsync(SlotsDbContext db, int placeId, DateOnly day, CancellationToken ct) =>
        await CancelsRead(db, placeId, day).ToListAsync(ct);

    private static async Task<Dictionary<string, Mark>> DayMarksAsync(SlotsDbContext db, int placeId, DateOnly day, CancellationToken ct)
    {
        var marks = new Dictionary<string, Mark>(StringComparer.Ordinal);
        await foreach (var mark in DayMarksRead(db, placeId, day).WithCancellation(ct))
        {
            marks[mark.Code] = mark;
        }
        return marks;
    }

    private static async Task<Dictionary<string, Person>> PeopleAsync(SlotsDbContext db, string[] codes, CancellationToken ct)
    {
        var people = new Dictionary<string, Person>(codes.Length, StringComparer.Ordinal);
        await foreach (var person in PeopleRead(db, codes).WithCancellation(ct))
        {
            people[person.Code] = person;
        }
        return people;
    }
}
