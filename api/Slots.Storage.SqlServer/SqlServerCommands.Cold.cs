using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Admission;
using Slots.Catalogue;
using Slots.Reservations;
using Slots.Scheduling;
using Slots.Staff;

namespace Slots.Storage.SqlServer;

/// <summary>The cold path's proc calls (sql/040-047): days beyond the hot window.</summary>
public static partial class SqlServerCommands
{
    /// <summary>dbo.cold_reserve: outputs @route, @outcome, @code, @replayed.</summary>
    public static SqlCommand ColdReserve(ReserveCommand c)
    {
        var proc = Proc("dbo.cold_reserve");
        AddReservation(proc, c);
        Add(proc, "@idempotency_key", SqlDbType.VarChar, KeySize, c.IdempotencyKey);
        Add(proc, "@fingerprint", SqlDbType.VarChar, FingerprintSize, c.Fingerprint);
        Add(proc, "@now", SqlDbType.BigInt, 0, c.Now.ToUnixTimeSeconds());
        Output(proc, "@route", SqlDbType.Int, 0);
        Output(proc, "@outcome", SqlDbType.Int, 0);
        Output(proc, "@code", SqlDbType.VarChar, CodeSize);
        Output(proc, "@replayed", SqlDbType.Bit, 0);
        return proc;
    }

    /// <summary>dbo.cold_cancel: outputs @route, @outcome.</summary>
    public static SqlCommand ColdCancel(CancelCommand c)
    {
        var proc = Proc("dbo.cold_cancel");
        AddProof(proc, c.Code, c.Proof);
        Add(proc, "@now", SqlDbType.BigInt, 0, c.Now.ToUnixTimeSeconds());
        Output(proc, "@route", SqlDbType.Int, 0);
        Output(proc, "@outcome", SqlDbType.Int, 0);
        return proc;
    }

    /// <summary>dbo.cold_was_cancelled: outputs @cancelled.</summary>
    public static SqlCommand ColdWasCancelled(CancelCommand c)
    {
        var proc = Proc("dbo.cold_was_cancelled");
        AddProof(proc, c.Code, c.Proof);
        Output(proc, "@cancelled", SqlDbType.Int, 0);
        return proc;
    }

    /// <summary>dbo.cold_reschedule: outputs @route, @outcome.</summary>
    public static SqlCommand ColdReschedule(RescheduleCommand c)
    {
        var proc = Proc("dbo.cold_reschedule");
        AddProof(proc, c.Code, c.Proof);
        AddTarget(proc, c.Target);
        Add(proc, "@holder_code", SqlDbType.VarChar, CodeSize, c.Holder ?? c.Code);
        Add(proc, "@now", SqlDbType.BigInt, 0, c.Now.ToUnixTimeSeconds());
        Output(proc, "@route", SqlDbType.Int, 0);
        Output(proc, "@outcome", SqlDbType.Int, 0);
        return proc;
    }

    /// <summary>dbo.cold_find_reservation: one row in the shape <see cref="ReadDetails"/> reads.</summary>
    public static SqlCommand ColdFindReservation(string code) => ByCode("dbo.cold_find_reservation", code);

    /// <summary>dbo.cold_availability: a row per cold slot of [from, to]; outputs @horizon.</summary>
    public static SqlCommand ColdAvailability(int placeId, DateOnly from, DateOnly to)
    {
        var proc = Range("dbo.cold_availability", placeId, from, to);
        Output(proc, "@horizon", SqlDbType.Date, 0);
        return proc;
    }

    /// <summary>dbo.cold_horizon: outputs @horizon (NULL for an unknown place).</summary>
    public static SqlCommand ColdHorizon(int placeId)
    {
        var proc = Proc("dbo.cold_horizon");
        Add(proc, "@place_id", SqlDbType.Int, 0, placeId);
        Output(proc, "@horizon", SqlDbType.Date, 0);
        return proc;
    }
}
