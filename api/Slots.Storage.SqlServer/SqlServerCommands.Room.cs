using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Admission;

namespace Slots.Storage.SqlServer;

/// <summary>The waiting room's other proc calls (sql/117-124): an opening's life, its reads, a claim given back.</summary>
public static partial class SqlServerCommands
{
    /// <summary>dbo.waiting_room_create: answers one row, the new opening's id.</summary>
    public static SqlCommand AdmissionCreate(NewOpening opening, DateTimeOffset now)
    {
        var proc = Proc("dbo.waiting_room_create");
        Add(proc, "@scope", SqlDbType.NVarChar, -1, opening.Scope.Text);
        Add(proc, "@opens_at", SqlDbType.BigInt, 0, opening.OpensAt.ToUnixTimeSeconds());
        Add(proc, "@rate", SqlDbType.Float, 0, opening.AdmitPerSecond);
        Add(proc, "@admission", SqlDbType.BigInt, 0, (long)opening.AdmissionTime.TotalSeconds);
        Add(proc, "@allowance", SqlDbType.BigInt, 0, (long)opening.AbandonAllowance);
        Add(proc, "@now", SqlDbType.BigInt, 0, now.ToUnixTimeSeconds());
        return proc;
    }

    /// <summary>dbo.waiting_room_close: answers one row (closed).</summary>
    public static SqlCommand AdmissionClose(long openingId, DateTimeOffset now)
    {
        var proc = Proc("dbo.waiting_room_close");
        Add(proc, "@id", SqlDbType.BigInt, 0, openingId);
        Add(proc, "@now", SqlDbType.BigInt, 0, now.ToUnixTimeSeconds());
        return proc;
    }

    /// <summary>dbo.waiting_room_find: the opening's row in <see cref="AdmissionRows.Opening"/>'s shape, or none.</summary>
    public static SqlCommand AdmissionFind(long openingId)
    {
        var proc = Proc("dbo.waiting_room_find");
        Add(proc, "@id", SqlDbType.BigInt, 0, openingId);
        return proc;
    }

    /// <summary>dbo.waiting_room_load: the openings, then their waves.</summary>
    public static SqlCommand AdmissionLoad(DateTimeOffset closedSince, DateTimeOffset wavesSince)
    {
        var proc = Proc("dbo.waiting_room_load");
        Add(proc, "@closed", SqlDbType.BigInt, 0, closedSince.ToUnixTimeSeconds());
        Add(proc, "@since", SqlDbType.BigInt, 0, wavesSince.ToUnixTimeMilliseconds());
        return proc;
    }

    /// <summary>dbo.waiting_room_seal: answers one row (sealed).</summary>
    public static SqlCommand AdmissionSeal(long openingId, DateTimeOffset now, byte[] shuffleKey)
    {
        var proc = Proc("dbo.waiting_room_seal");
        Add(proc, "@id", SqlDbType.BigInt, 0, openingId);
        Add(proc, "@key", SqlDbType.VarBinary, ShuffleKeySize, shuffleKey);
        Add(proc, "@now", SqlDbType.BigInt, 0, now.ToUnixTimeSeconds());
        return proc;
    }

    /// <summary>dbo.waiting_room_free_seats: the places as a JSON array; answers one row, the count.</summary>
    public static SqlCommand AdmissionFreeSeats(IReadOnlyList<int> placeIds, DateTimeOffset now)
    {
        var proc = Proc("dbo.waiting_room_free_seats");
        Add(proc, "@places", SqlDbType.NVarChar, -1, "[" + string.Join(',', placeIds) + "]");
        Add(proc, "@now", SqlDbType.BigInt, 0, now.ToUnixTimeSeconds());
        return proc;
    }

    /// <summary>dbo.waiting_room_outstanding: answers one row, the count.</summary>
    public static SqlCommand AdmissionOutstanding(long openingId, DateTimeOffset admittedSince)
    {
        var proc = Proc("dbo.waiting_room_outstanding");
        Add(proc, "@id", SqlDbType.BigInt, 0, openingId);
        Add(proc, "@since", SqlDbType.BigInt, 0, admittedSince.ToUnixTimeMilliseconds());
        return proc;
    }

    /// <summary>dbo.waiting_room_release: gives back this booking's claim.</summary>
    public static SqlCommand AdmissionRelease(AdmissionClaim claim)
    {
        var proc = Proc("dbo.waiting_room_release");
        Add(proc, "@id", SqlDbType.BigInt, 0, claim.OpeningId);
        Add(proc, "@ticket", SqlDbType.BigInt, 0, claim.Ticket);
        Add(proc, "@key", SqlDbType.VarChar, BookingKeySize, claim.Key);
        return proc;
    }
}
