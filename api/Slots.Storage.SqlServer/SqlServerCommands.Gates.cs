using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Admission;
using Slots.Catalogue;
using Slots.Reservations;
using Slots.Scheduling;
using Slots.Staff;

namespace Slots.Storage.SqlServer;

/// <summary>The waiting room's and the door's proc calls (sql/050-057, sql/062).</summary>
public static partial class SqlServerCommands
{
    // Column sizes, as declared in sql/051..054.
    public const int PersonHashSize = 64, BookingKeySize = 120, ShuffleKeySize = 32;

    /// <summary>dbo.waiting_room_join: the persons as dbo.waiting_room_persons rows in order; answers (ticket, is_new) per row, or none.</summary>
    public static SqlCommand AdmissionJoin(long openingId, IReadOnlyList<string> personKeys, DateTimeOffset now, byte[] shuffleKey)
    {
        var proc = Proc("dbo.waiting_room_join");
        Add(proc, "@opening_id", SqlDbType.BigInt, 0, openingId);
        var persons = proc.Parameters.Add("@persons", SqlDbType.Structured);
        persons.TypeName = "dbo.waiting_room_persons";
        var table = new DataTable { Locale = System.Globalization.CultureInfo.InvariantCulture };
        table.Columns.Add("ordinal", typeof(int));
        table.Columns.Add("person_hash", typeof(string));
        for (var i = 0; i < personKeys.Count; i++)
        {
            table.Rows.Add(i, personKeys[i]);
        }
        persons.Value = table;
        Add(proc, "@now", SqlDbType.BigInt, 0, now.ToUnixTimeSeconds());
        Add(proc, "@shuffle_key", SqlDbType.VarBinary, ShuffleKeySize, shuffleKey);
        return proc;
    }

    /// <summary>dbo.waiting_room_step: one guarded step of the serving counter; answers one row (moved).</summary>
    public static SqlCommand AdmissionStep(CounterStep step)
    {
        var proc = Proc("dbo.waiting_room_step");
        Add(proc, "@opening_id", SqlDbType.BigInt, 0, step.OpeningId);
        Add(proc, "@seen_version", SqlDbType.BigInt, 0, step.SeenVersion);
        Add(proc, "@seen_served", SqlDbType.BigInt, 0, step.SeenServed);
        Add(proc, "@served", SqlDbType.BigInt, 0, step.Served);
        Add(proc, "@seats_left", SqlDbType.BigInt, 0, step.SeatsLeft);
        Add(proc, "@credit_at_ms", SqlDbType.BigInt, 0, step.CreditAtMs);
        Add(proc, "@now_ms", SqlDbType.BigInt, 0, step.Now.ToUnixTimeMilliseconds());
        return proc;
    }

    /// <summary>dbo.waiting_room_claim: a booking takes an admission; answers one row (ours).</summary>
    public static SqlCommand AdmissionClaim(AdmissionClaim claim)
    {
        var proc = Proc("dbo.waiting_room_claim");
        Add(proc, "@opening_id", SqlDbType.BigInt, 0, claim.OpeningId);
        Add(proc, "@ticket", SqlDbType.BigInt, 0, claim.Ticket);
        Add(proc, "@position", SqlDbType.BigInt, 0, claim.Position);
        Add(proc, "@booking_key", SqlDbType.VarChar, BookingKeySize, claim.Key);
        Add(proc, "@now", SqlDbType.BigInt, 0, claim.Now.ToUnixTimeSeconds());
        return proc;
    }

    // Column size, as declared in sql/060: a staff member's token subject.
    public const int StaffSize = 256;

    /// <summary>dbo.staff_check_in (native): outputs @status (1, 2 or 4), @held_at, @held_by.</summary>
    public static SqlCommand StaffCheckIn(CheckInCommand c)
    {
        var proc = Proc("dbo.staff_check_in");
        Add(proc, "@code", SqlDbType.VarChar, CodeSize, c.Code);
        Add(proc, "@place_id", SqlDbType.Int, 0, c.PlaceId);
        Add(proc, "@by", SqlDbType.NVarChar, StaffSize, c.By);
        Add(proc, "@now", SqlDbType.BigInt, 0, c.Now.ToUnixTimeSeconds());
        Output(proc, "@status", SqlDbType.Int, 0);
        Output(proc, "@held_at", SqlDbType.BigInt, 0);
        Output(proc, "@held_by", SqlDbType.NVarChar, StaffSize);
        return proc;
    }
}
