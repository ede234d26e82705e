using Slots.Reservations;
using Slots.Staff;

namespace Slots.Storage.Sqlite;

/// <summary>Changes to a hot booking: cancel, reschedule and the door's check-in.</summary>
public sealed partial class SqliteHotPath
{
    public CancelStatus Cancel(CancelCommand c)
    {
        var now = c.Now.ToUnixTimeSeconds();
        var held = FindHeld(c.Code, c.Proof);
        if (held is null)
        {
            return CancelStatus.NotFound;
        }
        if (held.Value.StartsAt <= now)
        {
            return CancelStatus.Started;
        }
        if (Command(Sql.FindAttendance, ("$code", c.Code)).ExecuteScalar() is not null)
        {
            return CancelStatus.CheckedIn; // the door came first: the visit happened
        }
        // Snapshot the change and the SMS before the hot row disappears.
        Announce(ChangeKind.Cancelled, c.Code, now);
        ReleaseSeat(c.Code, held.Value.Slot, held.Value.SeatNo);
        Command(Sql.DeleteReservation, ("$code", c.Code)).ExecuteNonQuery();
        Command(Sql.DeleteActivePerson, ("$code", c.Code)).ExecuteNonQuery();
        return CancelStatus.Cancelled;
    }

    /// <summary>
    /// Checks a hot booking in. The writer is alone, so the citizen's cancel runs wholly before or
    /// after this: whichever comes first wins, and the other sees it.
    /// </summary>
    public CheckInAnswer CheckIn(CheckInCommand c)
    {
        using (var mark = Command(Sql.ReadAttendance, ("$code", c.Code)).ExecuteReader())
        {
            if (mark.Read())
            {
                return new CheckInAnswer(CheckInStatus.AlreadyCheckedIn, DateTimeOffset.FromUnixTimeSeconds(mark.GetInt64(0)), mark.GetString(1));
            }
        }
        using (var booking = Command(Sql.FindHotAtPlace, ("$code", c.Code), ("$place", c.PlaceId)).ExecuteReader())
        {
            if (!booking.Read())
            {
                return new CheckInAnswer(CheckInStatus.Cancelled); // gone from the hot rows since the door looked: cancelled
            }
        }
        Command(Sql.InsertAttendance, ("$code", c.Code), ("$place", c.PlaceId), ("$at", c.Now.ToUnixTimeSeconds()), ("$by", c.By)).ExecuteNonQuery();
        Command(Sql.InsertAudit, ("$at", c.Now.ToUnixTimeSeconds()), ("$by", c.By), ("$place", c.PlaceId), ("$action", c.Action), ("$code", c.Code)).ExecuteNonQuery();
        return new CheckInAnswer(CheckInStatus.CheckedIn, c.Now, c.By);
    }

    public RescheduleStatus Reschedule(RescheduleCommand c)
    {
        var now = c.Now.ToUnixTimeSeconds();
        var held = FindHeld(c.Code, c.Proof);
        if (held is null)
        {
            return RescheduleStatus.NotFound;
        }
        if (held.Value.StartsAt <= now)
        {
            return RescheduleStatus.Started;
        }
        // A booking moves within its service: the seat taken is one of its service's.
        var target = c.Target with { ServiceId = held.Value.Slot.ServiceId };
        if (held.Value.Slot == target)
        {
            return RescheduleStatus.Rescheduled; // a retried reschedule that already happened
        }
        if (Command(Sql.FindAttendance, ("$code", c.Code)).ExecuteScalar() is not null)
        {
            return RescheduleStatus.CheckedIn; // the door came first: the visit is under way where it was booked
        }
        var seat = ClaimSeat(target, c.Code, now);
        if (seat is null)
        {
            return ProbeSlot(target, now) switch
            {
                ReservationStatus.UnknownSlot => RescheduleStatus.UnknownSlot,
                ReservationStatus.SlotStarted => RescheduleStatus.SlotStarted,
                _ => RescheduleStatus.SlotFull,
            };
        }
        var (seatNo, minutes, startsAt) = seat.Value;
        ReleaseSeat(c.Code, held.Value.Slot, held.Value.SeatNo);
        Command(Sql.MoveReservation, ("$code", c.Code), ("$place", target.PlaceId), ("$day", target.Day),
            ("$minute", target.StartMinute), ("$seat", seatNo), ("$minutes", minutes), ("$starts", startsAt)).ExecuteNonQuery();
        Command(Sql.MoveActivePerson, ("$code", c.Code), ("$ends", startsAt + (minutes * 60L))).ExecuteNonQuery();
        Announce(ChangeKind.Rescheduled, c.Code, now);
        return RescheduleStatus.Rescheduled;
    }

    private (SlotKey Slot, int SeatNo, long StartsAt)? FindHeld(string code, ContactProof proof)
    {
        using var row = Command(Sql.FindHeld, ("$code", code)).ExecuteReader();
        if (!row.Read())
        {
            return null;
        }
        var phoneMatches = proof.Phone is not null && proof.Phone == row.GetString(5);
        var personMatches = proof.PersonHash is not null && proof.PersonHash == row.GetString(6);
        if (!phoneMatches && !personMatches)
        {
            return null; // a code without its owner's phone or id reveals nothing
        }
        return (new SlotKey(row.GetInt32(0), row.GetFieldValue<DateOnly>(1), row.GetInt32(2), row.GetInt32(7)), row.GetInt32(3), row.GetInt64(4));
    }

    private void ReleaseSeat(string code, SlotKey slot, int seatNo) =>
        Command(Sql.ReleaseSeat, ("$code", code), ("$place", slot.PlaceId), ("$day", slot.Day), ("$minute", slot.StartMinute),
            ("$service", slot.ServiceId), ("$seat", seatNo)).ExecuteNonQuery();
}
