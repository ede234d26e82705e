using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reservations;
using Slots.Staff;

namespace Slots.Storage.Ef.Staff;

/// <summary>
/// The staff side through EF Core, on SQLite, PostgreSQL and SQL Server: the roster, a booking at the
/// door and the audit trail. The check-in itself is the backend's, in one step with its own cancel;
/// SQL Server also writes the no-shows and the block cancel in procs beside its hot path's, which
/// is why those methods are virtual.
/// </summary>
public abstract partial class EfStaffStore(IServiceScopeFactory scopes) : IStaffStore
{
    public async Task<IReadOnlyList<RosterEntry>> DayAsync(int placeId, DateOnly day, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var door = await db.Attendance.AsNoTracking().Where(a => a.PlaceId == placeId && a.Day == day)
            .Select(a => new Mark(a.Code, a.State, a.At, a.By)).ToDictionaryAsync(a => a.Code, StringComparer.Ordinal, ct);
        // Keyed by start and service: two services of the place may start at the same minute.
        var minutes = await db.Slots.AsNoTracking().Where(s => s.PlaceId == placeId && s.Day == day)
            .ToDictionaryAsync(s => (s.StartMinute, s.ServiceId), s => s.Minutes, ct);
        var entries = new List<RosterEntry>();
        if (await IsHotAsync(db, placeId, day, ct))
        {
            // A hot day: the active bookings are the hot rows; the disk copies of them are not read.
            var hot = await (from s in db.HotSeats.AsNoTracking()
                             where s.PlaceId == placeId && s.Day == day && s.Code != null
                             join r in db.HotReservations.AsNoTracking() on s.Code equals r.Code
                             select new { r.Code, r.StartMinute, r.ServiceId, r.Minutes, r.SeatNo }).ToListAsync(ct);
            entries.AddRange(hot.Select(r => Entry(r.Code, r.StartMinute, r.ServiceId, r.Minutes, r.SeatNo, door)));
            // Cancelled ones: flushed to disk, or still a change record waiting for the flush.
            var cancelled = await db.Reservations.AsNoTracking()
                .Where(r => r.PlaceId == placeId && r.Day == day && r.CancelledAt != null)
                .Select(r => new { r.Code, r.StartMinute, r.ServiceId, r.SeatNo, At = r.CancelledAt!.Value }).ToListAsync(ct);
            entries.AddRange(cancelled.Select(r => Cancelled(r.Code, r.StartMinute, r.ServiceId, minutes, r.SeatNo, r.At, door)));
            var seen = cancelled.Select(r => r.Code).ToHashSet(StringComparer.Ordinal);
            var waiting = await db.Changes.AsNoTracking()
                .Where(c => c.Kind == (int)ChangeKind.Cancelled && c.PlaceId == placeId && c.Day == day)
                .Select(c => new { c.Code, c.StartMinute, c.ServiceId, c.SeatNo, c.At }).ToListAsync(ct);
            entries.AddRange(waiting.Where(c => seen.Add(c.Code)).Select(c => Cancelled(c.Code, c.StartMinute, c.ServiceId, minutes, c.SeatNo, c.At, door)));
        }
        else
        {
            var disk = await db.Reservations.AsNoTracking().Where(r => r.PlaceId == placeId && r.Day == day)
                .Select(r => new { r.Code, r.StartMinute, r.ServiceId, r.SeatNo, r.CancelledAt }).ToListAsync(ct);
            entries.AddRange(disk.Select(r => r.CancelledAt is { } at
                ? Cancelled(r.Code, r.StartMinute, r.ServiceId, minutes, r.SeatNo, at, door)
                : Entry(r.Code, r.StartMinute, r.ServiceId, minutes.GetValueOrDefault((r.StartMinute, r.ServiceId)), r.SeatNo, door)));
        }
        return entries;
    }

    /// <summary>The entries with their people's names, phones and languages, in the order given.</summary>
    private async Task<IReadOnlyList<RosterRow>> PeopleAsync(IReadOnlyList<RosterEntry> entries, CancellationToken ct)
    {
        if (entries.Count == 0)
        {
            return [];
        }
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        // A booking's person is the same in each place it is kept: its hot row while it is active in the
        // window, its disk row once flushed, or the change record of a cancel the flush has not taken yet.
        var codes = entries.Select(e => e.Code).ToList();
        var people = (await db.HotReservations.AsNoTracking().Where(r => codes.Contains(r.Code))
                .Select(r => new Person(r.Code, r.Name, r.Phone, r.Language)).ToListAsync(ct))
            .ToDictionary(p => p.Code, StringComparer.Ordinal);
        if (people.Count < codes.Count)
        {
            var missing = codes.Where(c => !people.ContainsKey(c)).ToList();
            foreach (var person in await db.Reservations.AsNoTracking().Where(r => missing.Contains(r.Code))
                .Select(r => new Person(r.Code, r.Name, r.Phone, r.Language)).ToListAsync(ct))
            {
                people[person.Code] = person;
            }
        }
        if (people.Count < codes.Count)
        {
            var missing = codes.Where(c => !people.ContainsKey(c)).ToList();
            foreach (var person in await db.Changes.AsNoTracking().Where(c => c.Kind == (int)ChangeKind.Cancelled && missing.Contains(c.Code))
                .Select(c => new Person(c.Code, c.Name, c.Phone, c.Language)).ToListAsync(ct))
            {
                people.TryAdd(person.Code, person);
            }
        }
        var rows = new List<RosterRow>(entries.Count);
        foreach (var entry in entries)
        {
            // None only when the booking's person was erased since the day was read.
            if (people.TryGetValue(entry.Code, out var person))
            {
                rows.Add(entry.With(person.Name, person.Phone, person.Language));
            }
        }
        return rows;
    }

    public async Task<DoorBooking?> FindAsync(string code, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var mark = await db.Attendance.AsNoTracking().Where(a => a.Code == code).SingleOrDefaultAsync(ct);
        if (await db.HotReservations.AsNoTracking().Where(r => r.Code == code).SingleOrDefaultAsync(ct) is { } hot)
        {
            var details = new ReservationDetails(hot.Code, new SlotKey(hot.PlaceId, hot.Day, hot.StartMinute, hot.ServiceId), hot.Minutes, hot.SeatNo,
                hot.Phone, hot.PersonHash, hot.Name, hot.Language, DateTimeOffset.FromUnixTimeSeconds(hot.CreatedAt));
            return Door(details, mark);
        }
        var changed = await db.Changes.AsNoTracking().Where(c => c.Code == code && c.Kind == (int)ChangeKind.Cancelled)
            .OrderByDescending(c => c.Id).FirstOrDefaultAsync(ct);
        if (changed is not null)
        {
            var details = new ReservationDetails(changed.Code, new SlotKey(changed.PlaceId, changed.Day, changed.StartMinute, changed.ServiceId), 0, changed.SeatNo,
                changed.Phone, changed.PersonHash, changed.Name, changed.Language, DateTimeOffset.FromUnixTimeSeconds(changed.CreatedAt));
            return new DoorBooking(details, RosterState.Cancelled, DateTimeOffset.FromUnixTimeSeconds(changed.At), null);
        }
        if (await db.Reservations.AsNoTracking().Where(r => r.Code == code).SingleOrDefaultAsync(ct) is { } disk)
        {
            var details = new ReservationDetails(disk.Code, new SlotKey(disk.PlaceId, disk.Day, disk.StartMinute, disk.ServiceId), 0, disk.SeatNo,
                disk.Phone, disk.PersonHash, disk.Name, disk.Language, DateTimeOffset.FromUnixTimeSeconds(disk.CreatedAt));
            return disk.CancelledAt is { } at
                ? new DoorBooking(details, RosterState.Cancelled, DateTimeOffset.FromUnixTimeSeconds(at), null)
                : Door(details, mark);
        }
        return null;
    }

    public abstract Task<CheckInAnswer> CheckInAsync(CheckInCommand command, CancellationToken ct);

    public virtual async Task<IReadOnlyList<int>> MarkNoShowsAsync(DateTimeOffset endedBefore, DateTimeOffset at, int batch, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        long ended = endedBefore.ToUnixTimeSeconds(), now = at.ToUnixTimeSeconds();
        // One statement on SQLite and PostgreSQL alike. A check-in that lands first wins the row (DO NOTHING);
        // one that lands after turns the no-show into a check-in (the door overrides).
        return await db.Database.SqlQuery<int>($"""
            INSERT INTO attendance (code, place_id, day, state, at, by)
            SELECT h.code, h.place_id, h.day, 3, {now}, 'no-show'
            FROM hot_reservations h
            WHERE h.starts_at + h.minutes * 60 <= {ended}
              AND NOT EXISTS (SELECT 1 FROM attendance a WHERE a.code = h.code)
            LIMIT {batch}
            ON CONFLICT (code) DO NOTHING
            RETURNING place_id AS "Value"
            """).ToListAsync(ct);
    }

    public async Task AppendAuditAsync(AuditEntry entry, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        db.StaffAudit.Add(new StaffAuditRecord
        {
            At = entry.At.ToUnixTimeSeconds(),
            Actor = entry.Actor,
            PlaceId = entry.PlaceId,
            Action = entry.Action,
            Target = entry.Target,
            Reason = entry.Reason,
        });
        await db.SaveChangesAsync(ct);
    }

    public async Task<IReadOnlyList<AuditEntry>> AuditAsync(int? placeId, DateTimeOffset from, DateTimeOffset to, int limit, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        long first = from.ToUnixTimeSeconds(), last = to.ToUnixTimeSeconds();
        var query = db.StaffAudit.AsNoTracking().Where(a => a.At >= first && a.At <= last);
        if (placeId is { } place)
        {
            query = query.Where(a => a.PlaceId == place);
        }
        var rows = await query.OrderByDescending(a => a.At).ThenByDescending(a => a.Id).Take(limit).ToListAsync(ct);
        return rows.Select(a => new AuditEntry(a.Id, DateTimeOffset.FromUnixTimeSeconds(a.At), a.Actor, a.PlaceId, a.Action, a.Target, a.Reason)).ToList();
    }

    private static DoorBooking Door(ReservationDetails details, AttendanceRecord? mark) =>
        mark is null
            ? new DoorBooking(details, RosterState.Booked, null, null)
            : new DoorBooking(details, (RosterState)mark.State, DateTimeOffset.FromUnixTimeSeconds(mark.At), mark.By);

    private sealed record Mark(string Code, int State, long At, string By);

    private sealed record Person(string Code, string Name, string Phone, string Language);

    private static RosterEntry Entry(string code, int start, int service, int minutes, int seat, Dictionary<string, Mark> door) =>
        door.TryGetValue(code, out var mark)
            ? new RosterEntry(code, start, minutes, seat, service, (RosterState)mark.State, DateTimeOffset.FromUnixTimeSeconds(mark.At), mark.By)
            : new RosterEntry(code, start, minutes, seat, service, RosterState.Booked, null, null);

    /// <summary>A cancelled booking: by the site when the door's record says so (with who did it), by the citizen otherwise.</summary>
    private static RosterEntry Cancelled(string code, int start, int service, Dictionary<(int, int), int> minutes, int seat, long at,
        Dictionary<string, Mark> door) =>
        door.TryGetValue(code, out var mark) && mark.State == (int)RosterState.CancelledBySite
            ? new(code, start, minutes.GetValueOrDefault((start, service)), seat, service, RosterState.CancelledBySite,
                DateTimeOffset.FromUnixTimeSeconds(mark.At), mark.By)
            : new(code, start, minutes.GetValueOrDefault((start, service)), seat, service, RosterState.Cancelled, DateTimeOffset.FromUnixTimeSeconds(at), null);
}
