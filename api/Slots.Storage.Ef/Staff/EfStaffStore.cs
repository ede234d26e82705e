using System.Linq.Expressions;
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
        if (await IsHotAsync(db, placeId, day, ct))
        {
            return (await HotDayAsync(db, placeId, day, ct)).Entries;
        }
        return [.. (await DiskLinesAsync(db, placeId, day, ct)).Values.Select(l => l.Entry())];
    }

    public async Task<DoorBooking?> FindAsync(string code, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        // The door's common case, a booking of the hot days, is one compiled read of its hot row with its mark.
        await foreach (var hot in HotAtDoorRead(db, code).WithCancellation(ct))
        {
            var details = new ReservationDetails(hot.Code, new SlotKey(hot.PlaceId, hot.Day, hot.StartMinute, hot.ServiceId), hot.Minutes, hot.SeatNo,
                hot.Phone, hot.PersonHash, hot.Name, hot.Language, DateTimeOffset.FromUnixTimeSeconds(hot.CreatedAt));
            return Door(details, hot.State, hot.At, hot.By);
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
            if (disk.CancelledAt is { } at)
            {
                return new DoorBooking(details, RosterState.Cancelled, DateTimeOffset.FromUnixTimeSeconds(at), null);
            }
            var mark = await db.Attendance.AsNoTracking().Where(a => a.Code == code).SingleOrDefaultAsync(ct);
            return Door(details, mark?.State, mark?.At, mark?.By);
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

    /// <summary>A hot booking by its code (the hot rows' key) with the door's mark, if it has one.</summary>
    private static readonly Expression<Func<SlotsDbContext, string, IQueryable<HotAtDoor>>> HotAtDoorQuery = (db, code) =>
        from r in db.HotReservations.AsNoTracking()
        where r.Code == code
        join mark in db.Attendance.AsNoTracking() on r.Code equals mark.Code into marks
        from a in marks.DefaultIfEmpty()
        select new HotAtDoor(r.Code, r.PlaceId, r.Day, r.StartMinute, r.ServiceId, r.Minutes, r.SeatNo, r.Phone, r.PersonHash, r.Name, r.Language, r.CreatedAt,
            a == null ? (int?)null : a.State, a == null ? (long?)null : a.At, a == null ? null : a.By);

    private static readonly Func<SlotsDbContext, string, IAsyncEnumerable<HotAtDoor>> HotAtDoorRead = EF.CompileAsyncQuery(HotAtDoorQuery);

    /// <summary>The door's read of a hot booking as a query, for the SQL Server tests that read what the provider writes.</summary>
    public static IQueryable<HotAtDoor> HotAtDoorOf(SlotsDbContext db, string code) => HotAtDoorQuery.Compile()(db, code);

    public sealed record HotAtDoor(string Code, int PlaceId, DateOnly Day, int StartMinute, int ServiceId, int Minutes, int SeatNo, string Phone,
        string PersonHash, string Name, string Language, long CreatedAt, int? State, long? At, string? By);

    /// <summary>A booking at the door with its mark (state, at, by), or booked when it has none.</summary>
    private static DoorBooking Door(ReservationDetails details, int? state, long? at, string? by) =>
        state is { } marked
            ? new DoorBooking(details, (RosterState)marked, DateTimeOffset.FromUnixTimeSeconds(at!.Value), by)
            : new DoorBooking(details, RosterState.Booked, null, null);
}
