using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Admission;
using Slots.Catalogue;
using Slots.Reservations;
using Slots.Scheduling;
using Slots.Staff;

namespace Slots.Storage.SqlServer;

/// <summary>
/// Every stored-procedure command the SQL Server adapters send, built without a connection: the
/// adapters attach one and execute it, and the tests compare each command's parameters (names,
/// SQL types, sizes, directions) with the proc's declaration in sql/, with no server needed.
/// </summary>
public static partial class SqlServerCommands
{
    // Column sizes, as declared in sql/004..011.
    public const int CodeSize = 16, PersonSize = 64, PhoneSize = 16, NameSize = 100, LanguageSize = 8, KeySize = 100, FingerprintSize = 64;

    public const int JobSize = 100, InstanceSize = 200;

    /// <summary>dbo.reserve (native): outputs @outcome, @code, @replayed.</summary>
    public static SqlCommand Reserve(ReserveCommand c)
    {
        var proc = Proc("dbo.reserve");
        AddReservation(proc, c);
        Add(proc, "@seat_hint", SqlDbType.Int, 0, SqlServerOutcomes.SeatHint(c.NewCode));
        Add(proc, "@idempotency_key", SqlDbType.VarChar, KeySize, c.IdempotencyKey);
        Add(proc, "@fingerprint", SqlDbType.VarChar, FingerprintSize, c.Fingerprint);
        Add(proc, "@now", SqlDbType.BigInt, 0, c.Now.ToUnixTimeSeconds());
        Output(proc, "@outcome", SqlDbType.Int, 0);
        Output(proc, "@code", SqlDbType.VarChar, CodeSize);
        Output(proc, "@replayed", SqlDbType.Bit, 0);
        return proc;
    }

    /// <summary>
    /// dbo.reserve_pair (interpreted: the first dose through dbo.reserve and the second, hot or on disk,
    /// in one transaction): outputs @outcome, @code, @replayed, and where the second dose went, @day2 and @minutes2.
    /// </summary>
    public static SqlCommand ReservePair(ReserveCommand c)
    {
        var proc = Proc("dbo.reserve_pair");
        Add(proc, "@place_id", SqlDbType.Int, 0, c.Slot.PlaceId);
        Add(proc, "@day", SqlDbType.Date, 0, c.Slot.Day.ToDateTime(TimeOnly.MinValue));
        Add(proc, "@start_minute", SqlDbType.Int, 0, c.Slot.StartMinute);
        Add(proc, "@service_id", SqlDbType.Int, 0, c.Slot.ServiceId);
        Add(proc, "@person_hash", SqlDbType.VarChar, PersonSize, c.PersonHash);
        Add(proc, "@phone", SqlDbType.VarChar, PhoneSize, c.Phone);
        Add(proc, "@name", SqlDbType.NVarChar, NameSize, c.Name);
        Add(proc, "@language", SqlDbType.VarChar, LanguageSize, c.Language);
        Add(proc, "@new_code", SqlDbType.VarChar, CodeSize, c.NewCode);
        Add(proc, "@seat_hint", SqlDbType.Int, 0, SqlServerOutcomes.SeatHint(c.NewCode));
        Add(proc, "@idempotency_key", SqlDbType.VarChar, KeySize, c.IdempotencyKey);
        Add(proc, "@fingerprint", SqlDbType.VarChar, FingerprintSize, c.Fingerprint);
        Add(proc, "@now", SqlDbType.BigInt, 0, c.Now.ToUnixTimeSeconds());
        var second = c.Second ?? throw new ArgumentException("A pair names its second dose's range.", nameof(c));
        Add(proc, "@second_code", SqlDbType.VarChar, CodeSize, c.SecondCode);
        Add(proc, "@day2_from", SqlDbType.Date, 0, second.From.ToDateTime(TimeOnly.MinValue));
        Add(proc, "@day2_to", SqlDbType.Date, 0, second.To.ToDateTime(TimeOnly.MinValue));
        Add(proc, "@minute2", SqlDbType.Int, 0, second.StartMinute);
        Output(proc, "@outcome", SqlDbType.Int, 0);
        Output(proc, "@code", SqlDbType.VarChar, CodeSize);
        Output(proc, "@replayed", SqlDbType.Bit, 0);
        Output(proc, "@day2", SqlDbType.Date, 0);
        Output(proc, "@minutes2", SqlDbType.Int, 0);
        return proc;
    }

    /// <summary>dbo.reserve_batch (native): the requests as dbo.reserve_request rows, numbered from 0; answers one row per request.</summary>
    public static SqlCommand ReserveBatch(IReadOnlyList<ReserveCommand> commands)
    {
        var proc = Proc("dbo.reserve_batch");
        var requests = proc.Parameters.Add("@requests", SqlDbType.Structured);
        requests.TypeName = "dbo.reserve_request";
        requests.Value = ReserveRequestRows.From(commands);
        Add(proc, "@now", SqlDbType.BigInt, 0, commands[0].Now.ToUnixTimeSeconds());
        return proc;
    }

    /// <summary>dbo.cancel (native): outputs @outcome.</summary>
    public static SqlCommand Cancel(CancelCommand c)
    {
        var proc = Proc("dbo.cancel");
        AddProof(proc, c.Code, c.Proof);
        Add(proc, "@now", SqlDbType.BigInt, 0, c.Now.ToUnixTimeSeconds());
        Output(proc, "@outcome", SqlDbType.Int, 0);
        return proc;
    }

    /// <summary>dbo.reschedule (native): outputs @outcome.</summary>
    public static SqlCommand Reschedule(RescheduleCommand c)
    {
        var proc = Proc("dbo.reschedule");
        AddProof(proc, c.Code, c.Proof);
        AddTarget(proc, c.Target);
        Add(proc, "@holder_code", SqlDbType.VarChar, CodeSize, c.Holder ?? c.Code);
        Add(proc, "@seat_hint", SqlDbType.Int, 0, SqlServerOutcomes.SeatHint(c.Code));
        Add(proc, "@now", SqlDbType.BigInt, 0, c.Now.ToUnixTimeSeconds());
        Output(proc, "@outcome", SqlDbType.Int, 0);
        return proc;
    }

    /// <summary>dbo.find_reservation (native): one row in the shape <see cref="ReadDetails"/> reads.</summary>
    public static SqlCommand FindReservation(string code) => ByCode("dbo.find_reservation", code);

    /// <summary>dbo.ping: the readiness check, a read of the migrator's bookkeeping; answers one row, an int.</summary>
    public static SqlCommand Ping() => Proc("dbo.ping");

    /// <summary>dbo.availability (native): a row per slot of [from, to].</summary>
    public static SqlCommand Availability(int placeId, DateOnly from, DateOnly to) => Range("dbo.availability", placeId, from, to);

    /// <summary>dbo.load_hot_days: returns the seats loaded.</summary>
    public static SqlCommand LoadHotDays(int placeId, DateOnly from, DateOnly to)
    {
        var proc = Range("dbo.load_hot_days", placeId, from, to);
        proc.Parameters.Add("@return", SqlDbType.Int).Direction = ParameterDirection.ReturnValue;
        return proc;
    }

    /// <summary>dbo.flush_changes: answers the changes flushed.</summary>
    public static SqlCommand FlushChanges(int batchSize)
    {
        var proc = Proc("dbo.flush_changes");
        Add(proc, "@batch_size", SqlDbType.Int, 0, batchSize);
        return proc;
    }

    public static SqlCommand EvictHotDays(int placeId, DateOnly before, DateTimeOffset now, int batchSize)
    {
        var proc = Proc("dbo.evict_hot_days");
        Add(proc, "@place_id", SqlDbType.Int, 0, placeId);
        Add(proc, "@before", SqlDbType.Date, 0, before.ToDateTime(TimeOnly.MinValue));
        Add(proc, "@now", SqlDbType.BigInt, 0, now.ToUnixTimeSeconds());
        Add(proc, "@batch_size", SqlDbType.Int, 0, batchSize);
        return proc;
    }

    /// <summary>dbo.record_walk_in: the trail's walk-in row of a booking staff made (SqlServerWalkIns).</summary>
    public static SqlCommand RecordWalkIn(ReserveCommand c, string code)
    {
        var proc = Proc("dbo.record_walk_in");
        Add(proc, "@at", SqlDbType.BigInt, 0, c.Now.ToUnixTimeSeconds());
        Add(proc, "@actor", SqlDbType.NVarChar, 256, c.BookedBy);
        Add(proc, "@place_id", SqlDbType.Int, 0, c.Slot.PlaceId);
        Add(proc, "@code", SqlDbType.VarChar, CodeSize, code);
        return proc;
    }

    public static SqlCommand RecordJobRun(JobRun run)
    {
        var proc = Proc("dbo.record_job_run");
        Add(proc, "@job", SqlDbType.VarChar, JobSize, run.Job);
        Add(proc, "@started_at", SqlDbType.BigInt, 0, run.StartedAt.ToUnixTimeSeconds());
        Add(proc, "@duration_ms", SqlDbType.BigInt, 0, (long)run.Duration.TotalMilliseconds);
        Add(proc, "@rows_moved", SqlDbType.BigInt, 0, run.Rows);
        Add(proc, "@ok", SqlDbType.Bit, 0, run.Ok);
        Add(proc, "@instance", SqlDbType.NVarChar, InstanceSize, run.Instance);
        return proc;
    }

    /// <summary>dbo.add_slots: the slots as dbo.slot_list rows; answers one row (created, existing, created_in_window).</summary>
    public static SqlCommand AddSlots(int placeId, IReadOnlyList<SlotRow> slots, bool dryRun)
    {
        var proc = Proc("dbo.add_slots");
        Add(proc, "@place_id", SqlDbType.Int, 0, placeId);
        var list = proc.Parameters.Add("@slots", SqlDbType.Structured);
        list.TypeName = "dbo.slot_list";
        list.Value = SlotList(slots);
        Add(proc, "@dry_run", SqlDbType.Bit, 0, dryRun);
        return proc;
    }

    /// <summary>The rows of dbo.slot_list (sql/025), in its column order.</summary>
    public static DataTable SlotList(IEnumerable<SlotRow> slots)
    {
        var table = new DataTable { Locale = System.Globalization.CultureInfo.InvariantCulture };
        table.Columns.Add("day", typeof(DateTime));
        table.Columns.Add("start_minute", typeof(int));
        table.Columns.Add("minutes", typeof(int));
        table.Columns.Add("capacity", typeof(int));
        table.Columns.Add("starts_at", typeof(long));
        foreach (var s in slots)
        {
            table.Rows.Add(s.Day.ToDateTime(TimeOnly.MinValue), s.StartMinute, s.Minutes, s.Capacity, s.StartsAt);
        }
        return table;
    }

    /// <summary>The row dbo.find_reservation and dbo.cold_find_reservation answer, as the port's details.</summary>
    public static ReservationDetails ReadDetails(SqlDataReader row, string code) => new(
        code,
        new SlotKey(row.GetInt32(0), DateOnly.FromDateTime(row.GetDateTime(1)), row.GetInt32(2)),
        row.GetInt32(3), row.GetInt32(4), row.GetString(5), row.GetString(6), row.GetString(7), row.GetString(8),
        DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(9)));

    /// <summary>A row of dbo.availability or dbo.cold_availability, as the port's slot.</summary>
    public static SlotAvailability ReadSlot(SqlDataReader row, int placeId) => new(
        new SlotKey(placeId, DateOnly.FromDateTime(row.GetDateTime(0)), row.GetInt32(1)),
        row.GetInt32(2), row.GetInt32(3), row.GetInt32(4), row.GetInt64(5));

    /// <summary>Attaches the command to an open connection; the caller disposes both.</summary>
    public static SqlCommand On(this SqlCommand command, SqlConnection connection)
    {
        command.Connection = connection;
        return command;
    }

    /// <summary>An output parameter's value once the command has run.</summary>
    public static object? Out(this SqlCommand command, string name) =>
        command.Parameters[name].Value is var value && value != DBNull.Value ? value : null;

    private static SqlCommand Proc(string name) => new(name) { CommandType = CommandType.StoredProcedure };

    private static SqlCommand ByCode(string name, string code)
    {
        var proc = Proc(name);
        Add(proc, "@code", SqlDbType.VarChar, CodeSize, code);
        return proc;
    }

    private static SqlCommand Range(string name, int placeId, DateOnly from, DateOnly to)
    {
        var proc = Proc(name);
        Add(proc, "@place_id", SqlDbType.Int, 0, placeId);
        Add(proc, "@from", SqlDbType.Date, 0, from.ToDateTime(TimeOnly.MinValue));
        Add(proc, "@to", SqlDbType.Date, 0, to.ToDateTime(TimeOnly.MinValue));
        return proc;
    }

    private static void AddReservation(SqlCommand proc, ReserveCommand c)
    {
        Add(proc, "@place_id", SqlDbType.Int, 0, c.Slot.PlaceId);
        Add(proc, "@day", SqlDbType.Date, 0, c.Slot.Day.ToDateTime(TimeOnly.MinValue));
        Add(proc, "@start_minute", SqlDbType.Int, 0, c.Slot.StartMinute);
        Add(proc, "@person_hash", SqlDbType.VarChar, PersonSize, c.PersonHash);
        Add(proc, "@phone", SqlDbType.VarChar, PhoneSize, c.Phone);
        Add(proc, "@name", SqlDbType.NVarChar, NameSize, c.Name);
        Add(proc, "@language", SqlDbType.VarChar, LanguageSize, c.Language);
        Add(proc, "@new_code", SqlDbType.VarChar, CodeSize, c.NewCode);
    }

    private static void AddProof(SqlCommand proc, string code, ContactProof proof)
    {
        Add(proc, "@code", SqlDbType.VarChar, CodeSize, code);
        Add(proc, "@phone", SqlDbType.VarChar, PhoneSize, proof.Phone);
        Add(proc, "@person_hash", SqlDbType.VarChar, PersonSize, proof.PersonHash);
    }

    private static void AddTarget(SqlCommand proc, SlotKey target)
    {
        Add(proc, "@to_place_id", SqlDbType.Int, 0, target.PlaceId);
        Add(proc, "@to_day", SqlDbType.Date, 0, target.Day.ToDateTime(TimeOnly.MinValue));
        Add(proc, "@to_start_minute", SqlDbType.Int, 0, target.StartMinute);
    }

    /// <summary>A size of 0 leaves the type's own; -1 is (max).</summary>
    private static void Add(SqlCommand proc, string name, SqlDbType type, int size, object? value)
    {
        var parameter = proc.Parameters.Add(name, type);
        if (size != 0)
        {
            parameter.Size = size;
        }
        parameter.Value = value ?? DBNull.Value;
    }

    private static void Output(SqlCommand proc, string name, SqlDbType type, int size)
    {
        var parameter = proc.Parameters.Add(name, type);
        if (size > 0)
        {
            parameter.Size = size;
        }
        parameter.Direction = ParameterDirection.Output;
    }
}
