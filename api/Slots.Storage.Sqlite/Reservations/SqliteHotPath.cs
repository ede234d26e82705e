using Microsoft.Data.Sqlite;
using Slots.Reservations;
using Slots.Staff;

namespace Slots.Storage.Sqlite;

/// <summary>
/// The hot-path statements on the writer's connection, prepared once and reused with their
/// parameter objects (only the values change between runs). Every method
/// runs inside the writer's transaction, so its reads and writes are one atomic unit.
/// </summary>
public sealed partial class SqliteHotPath(SqliteConnection connection) : IAsyncDisposable
{
    private readonly Dictionary<string, SqliteCommand> _commands = new(StringComparer.Ordinal);

    public SqliteConnection Connection { get; } = connection;
    public SqliteTransaction? Transaction { get; set; }

    public ReserveResult? Reserve(ReserveCommand c)
    {
        var now = c.Now.ToUnixTimeSeconds();
        using (var seen = Command(Sql.FindIdempotency, ("$key", c.IdempotencyKey)).ExecuteReader())
        {
            if (seen.Read())
            {
                return seen.GetString(0) == c.Fingerprint
                    ? new ReserveResult((ReservationStatus)seen.GetInt32(1), seen.IsDBNull(2) ? null : seen.GetString(2), Replayed: true)
                    : null;
            }
        }

        var result = TakeSeat(c, now);
        // A slot full is not remembered: a retry with the same key asks again and books if a seat
        // came back meanwhile (still only once: a booking is remembered under its key).
        if (result.Status != ReservationStatus.SlotFull)
        {
            Command(Sql.RememberIdempotency,
                ("$key", c.IdempotencyKey), ("$fingerprint", c.Fingerprint), ("$outcome", (int)result.Status),
                ("$code", (object?)result.Code ?? DBNull.Value), ("$now", now)).ExecuteNonQuery();
        }
        return result;
    }

    private ReserveResult TakeSeat(ReserveCommand c, long now)
    {
        using (var holder = Command(Sql.FindActivePerson, ("$person", c.PersonHash), ("$now", now)).ExecuteReader())
        {
            if (holder.Read())
            {
                // The existing code is shown only to the phone that booked it.
                var samePhone = !holder.IsDBNull(1) && holder.GetString(1) == c.Phone;
                return new ReserveResult(ReservationStatus.AlreadyBooked, samePhone ? holder.GetString(0) : null);
            }
        }

        var seat = ClaimSeat(c.Slot, c.NewCode, now);
        if (seat is null)
        {
            return new ReserveResult(ProbeSlot(c.Slot, now), null);
        }
        var (seatNo, minutes, startsAt) = seat.Value;
        Command(Sql.InsertReservation,
            ("$code", c.NewCode), ("$place", c.Slot.PlaceId), ("$day", c.Slot.Day), ("$minute", c.Slot.StartMinute),
            ("$seat", seatNo), ("$minutes", minutes), ("$starts", startsAt), ("$person", c.PersonHash),
            ("$phone", c.Phone), ("$name", c.Name), ("$language", c.Language), ("$now", now)).ExecuteNonQuery();
        Command(Sql.UpsertActivePerson, ("$person", c.PersonHash), ("$code", c.NewCode), ("$ends", startsAt + (minutes * 60L))).ExecuteNonQuery();
        Announce(ChangeKind.Reserved, c.NewCode, now);
        return ReserveResult.Reserved(c.NewCode, minutes);
    }

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
        Command(Sql.ReleaseSeat, ("$code", c.Code), ("$place", held.Value.Slot.PlaceId), ("$day", held.Value.Slot.Day),
            ("$minute", held.Value.Slot.StartMinute), ("$seat", held.Value.SeatNo)).ExecuteNonQuery();
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
        if (held.Value.Slot == c.Target)
        {
            return RescheduleStatus.Rescheduled; // a retried reschedule that already happened
        }
        var seat = ClaimSeat(c.Target, c.Code, now);
        if (seat is null)
        {
            return ProbeSlot(c.Target, now) switch
            {
                ReservationStatus.UnknownSlot => RescheduleStatus.UnknownSlot,
                ReservationStatus.SlotStarted => RescheduleStatus.SlotStarted,
                _ => RescheduleStatus.SlotFull,
            };
        }
        var (seatNo, minutes, startsAt) = seat.Value;
        Command(Sql.ReleaseSeat, ("$code", c.Code), ("$place", held.Value.Slot.PlaceId), ("$day", held.Value.Slot.Day),
            ("$minute", held.Value.Slot.StartMinute), ("$seat", held.Value.SeatNo)).ExecuteNonQuery();
        Command(Sql.MoveReservation, ("$code", c.Code), ("$place", c.Target.PlaceId), ("$day", c.Target.Day),
            ("$minute", c.Target.StartMinute), ("$seat", seatNo), ("$minutes", minutes), ("$starts", startsAt)).ExecuteNonQuery();
        Command(Sql.MoveActivePerson, ("$code", c.Code), ("$ends", startsAt + (minutes * 60L))).ExecuteNonQuery();
        Announce(ChangeKind.Rescheduled, c.Code, now);
        return RescheduleStatus.Rescheduled;
    }

    /// <summary>
    /// Drains up to <paramref name="batchSize"/> change records into the disk reservations, oldest
    /// first, inside the writer's transaction: the flush queues with the bookings instead of
    /// competing with them for the file lock (where the writer, always busy under load, would
    /// starve it). Changes are applied one by one in id order, so the disk table passes through
    /// the states the hot one did and its unique index on active seats always holds.
    /// </summary>
    public int FlushChanges(int batchSize)
    {
        var batch = new List<object[]>(batchSize);
        using (var read = Command(Sql.ReadChanges, ("$n", batchSize)).ExecuteReader())
        {
            while (read.Read())
            {
                var row = new object[read.FieldCount];
                read.GetValues(row);
                batch.Add(row);
            }
        }
        foreach (var c in batch)
        {
            Command(Sql.ApplyChange, ("$id", c[0]), ("$kind", c[1]), ("$code", c[2]), ("$place", c[3]), ("$day", c[4]),
                ("$minute", c[5]), ("$seat", c[6]), ("$person", c[7]), ("$phone", c[8]), ("$name", c[9]), ("$language", c[10]),
                ("$created", c[11]), ("$at", c[12])).ExecuteNonQuery();
        }
        if (batch.Count > 0)
        {
            Command(Sql.DeleteChanges, ("$last", batch[^1][0])).ExecuteNonQuery();
        }
        return batch.Count;
    }

    private (int SeatNo, int Minutes, long StartsAt)? ClaimSeat(SlotKey slot, string code, long now)
    {
        using var claimed = Command(Sql.ClaimSeat, ("$code", code), ("$place", slot.PlaceId), ("$day", slot.Day),
            ("$minute", slot.StartMinute), ("$now", now)).ExecuteReader();
        return claimed.Read() ? (claimed.GetInt32(0), claimed.GetInt32(1), claimed.GetInt64(2)) : null;
    }

    /// <summary>Why no seat was free: the slot does not exist, has started, or is full.</summary>
    private ReservationStatus ProbeSlot(SlotKey slot, long now)
    {
        using var probe = Command(Sql.ProbeSlot, ("$place", slot.PlaceId), ("$day", slot.Day), ("$minute", slot.StartMinute)).ExecuteReader();
        if (!probe.Read() || probe.IsDBNull(0))
        {
            return ReservationStatus.UnknownSlot;
        }
        return probe.GetInt64(0) <= now ? ReservationStatus.SlotStarted : ReservationStatus.SlotFull;
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
        return (new SlotKey(row.GetInt32(0), row.GetFieldValue<DateOnly>(1), row.GetInt32(2)), row.GetInt32(3), row.GetInt64(4));
    }

    /// <summary>The SMS outbox row and the change record for the flush, from the hot reservation row.</summary>
    private void Announce(ChangeKind kind, string code, long now)
    {
        Command(Sql.InsertOutbox, ("$kind", (int)kind), ("$code", code), ("$now", now)).ExecuteNonQuery();
        Command(Sql.InsertChange, ("$kind", (int)kind), ("$code", code), ("$now", now)).ExecuteNonQuery();
    }

    /// <summary>
    /// The statement prepared once on the writer's connection and bound to these values, in the
    /// writer's transaction. Other stores whose writes join the group commit (the waiting list's
    /// claim, reminders) run theirs through it too. The command stays the hot path's: do not dispose it.
    /// </summary>
    public SqliteCommand Command(string sql, params ReadOnlySpan<(string Name, object Value)> parameters)
    {
        if (!_commands.TryGetValue(sql, out var command))
        {
            command = Connection.CreateCommand();
            command.CommandText = sql;
            _commands[sql] = command;
        }
        command.Transaction = Transaction;
        // Every call site of one statement names its parameters in the same order, so the parameter
        // objects made on its first run are reused and only their values change.
        var bound = command.Parameters;
        if (!SameNames(bound, parameters))
        {
            bound.Clear();
            foreach (var (name, value) in parameters)
            {
                bound.Add(new SqliteParameter(name, value));
            }
            return command;
        }
        for (var i = 0; i < parameters.Length; i++)
        {
            bound[i].Value = parameters[i].Value;
        }
        return command;
    }

    private static bool SameNames(SqliteParameterCollection bound, ReadOnlySpan<(string Name, object Value)> parameters)
    {
        if (bound.Count != parameters.Length)
        {
            return false;
        }
        for (var i = 0; i < parameters.Length; i++)
        {
            if (bound[i].ParameterName != parameters[i].Name)
            {
                return false;
            }
        }
        return true;
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var command in _commands.Values)
        {
            await command.DisposeAsync();
        }
        await Connection.DisposeAsync();
    }
}
