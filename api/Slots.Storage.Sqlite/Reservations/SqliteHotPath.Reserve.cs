using Slots.Eligibility;
using Slots.Reservations;

namespace Slots.Storage.Sqlite;

/// <summary>
/// A booking: the idempotency key, the one-active-booking rule, the seat, and the hot row that carries
/// the key, the confirmation SMS and the change for the flush (three row writes: seat, person, reservation).
/// </summary>
public sealed partial class SqliteHotPath
{
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
        // A booking is remembered under its key on its own hot row. A slot full is not remembered:
        // a retry with the same key asks again and books if a seat came back meanwhile (still only
        // once). Nor is a refusal by the service's rule: the person's turn may come.
        if (result.Status is not (ReservationStatus.Reserved or ReservationStatus.SlotFull or ReservationStatus.NotEligible
            or ReservationStatus.SecondDoseFull))
        {
            Command(Sql.RememberIdempotency,
                ("$key", c.IdempotencyKey), ("$fingerprint", c.Fingerprint), ("$outcome", (int)result.Status),
                ("$code", (object?)result.Code ?? DBNull.Value), ("$now", now)).ExecuteNonQuery();
        }
        return result;
    }

    private ReserveResult TakeSeat(ReserveCommand c, long now)
    {
        using (var holder = Command(Sql.FindActivePerson, ("$person", c.PersonHash), ("$service", c.Slot.ServiceId), ("$now", now)).ExecuteReader())
        {
            if (holder.Read())
            {
                // The existing code is shown only to the phone that booked it.
                var samePhone = !holder.IsDBNull(1) && holder.GetString(1) == c.Phone;
                return new ReserveResult(ReservationStatus.AlreadyBooked, samePhone ? holder.GetString(0) : null);
            }
        }

        var decision = Decide(c, now);
        if (decision.Reason is { } reason)
        {
            return new ReserveResult(ReservationStatus.NotEligible, null, Detail: (int)reason);
        }
        var seat = ClaimSeat(c.Slot, c.NewCode, now);
        if (seat is null)
        {
            return new ReserveResult(ProbeSlot(c.Slot, now), null);
        }
        var second = c.Second is null ? null : SeatSecond(c, now);
        if (c.Second is not null && second is null)
        {
            Command(PairSql.ReleaseFirst, ("$place", c.Slot.PlaceId), ("$day", c.Slot.Day), ("$minute", c.Slot.StartMinute),
                ("$service", c.Slot.ServiceId), ("$code", c.NewCode)).ExecuteNonQuery();
            return new ReserveResult(ReservationStatus.SecondDoseFull, null);
        }
        if (decision.SpendsInvitation)
        {
            // The writer's transaction read the code just now, so the spend cannot miss it.
            Command(Sql.SpendInvitation, ("$person", c.PersonHash), ("$code", c.NewCode), ("$now", now), ("$invite", c.InvitationHash!),
                ("$service", c.Slot.ServiceId)).ExecuteNonQuery();
        }
        var (seatNo, minutes, startsAt) = seat.Value;
        // No SMS chosen (a walk-in): no message at all, not one marked sent.
        InsertReservation(c, new SeatTaken(c.NewCode, c.Slot.Day, c.Slot.StartMinute, seatNo, minutes, startsAt), c.IdempotencyKey, c.Fingerprint,
            c.Sms ? DrawEventId() : null, now);
        // A pair holds the person until its second dose ends: the one-booking rule counts it once.
        var ends = second?.EndsAt ?? startsAt + (minutes * 60L);
        Command(Sql.UpsertActivePerson, ("$person", c.PersonHash), ("$service", c.Slot.ServiceId), ("$code", c.NewCode), ("$ends", ends)).ExecuteNonQuery();
        if (c.BookedBy is { } by)
        {
            // Who made it on the person's behalf, in the booking's transaction.
            Command(Sql.InsertWalkIn, ("$now", now), ("$by", by), ("$place", c.Slot.PlaceId), ("$code", c.NewCode),
                ("$sms", c.Sms ? "sms" : "no-sms")).ExecuteNonQuery();
        }
        return ReserveResult.Reserved(c.NewCode, minutes) with { Second = second?.Dose };
    }

    /// <summary>
    /// Whether the service's rule admits the person, read in the writer's transaction as the seat is:
    /// the stored rule and cut-off and the code the booking brought, judged by the same function as every store's.
    /// </summary>
    private EligibilityDecision Decide(ReserveCommand c, long now)
    {
        using var rule = Command(Sql.FindEligibility, ("$service", c.Slot.ServiceId), ("$now", now),
            ("$invite", (object?)c.InvitationHash ?? DBNull.Value)).ExecuteReader();
        if (!rule.Read())
        {
            return EligibilityDecision.Allowed;
        }
        var cutOff = rule.IsDBNull(1) ? (DateOnly?)null : DateOnly.Parse(rule.GetString(1), System.Globalization.CultureInfo.InvariantCulture);
        var service = ServiceEligibility.InForce(c.Slot.ServiceId, (EligibilityRule)rule.GetInt32(0), cutOff, rule.GetBoolean(2));
        InvitationState? invitation = c.InvitationHash is null ? null
            : Invitations.StateFor(rule.GetBoolean(3), !rule.IsDBNull(4) && rule.GetBoolean(4), rule.GetBoolean(5),
                rule.IsDBNull(6) ? null : rule.GetString(6), c.PersonHash);
        return EligibilityDecision.For(service, c.BornOn, invitation, c.Now);
    }

    /// <summary>A seat the booking (or its second dose) took at the place of the command's slot.</summary>
    private readonly record struct SeatTaken(string Code, DateOnly Day, int StartMinute, int SeatNo, int Minutes, long StartsAt);

    /// <summary>The hot row: the booking with its key, its confirmation's message id (none: no SMS) and its mark for the flush.</summary>
    private void InsertReservation(ReserveCommand c, SeatTaken seat, string? key, string? fingerprint, long? eventId, long now) =>
        Command(Sql.InsertReservation,
            ("$code", seat.Code), ("$place", c.Slot.PlaceId), ("$day", seat.Day), ("$minute", seat.StartMinute),
            ("$service", c.Slot.ServiceId), ("$seat", seat.SeatNo), ("$minutes", seat.Minutes), ("$starts", seat.StartsAt), ("$person", c.PersonHash),
            ("$phone", c.Phone), ("$name", c.Name), ("$language", c.Language), ("$now", now), ("$key", (object?)key ?? DBNull.Value),
            ("$fingerprint", (object?)fingerprint ?? DBNull.Value), ("$event", (object?)eventId ?? DBNull.Value)).ExecuteNonQuery();

    private (int SeatNo, int Minutes, long StartsAt)? ClaimSeat(SlotKey slot, string code, long now)
    {
        using var claimed = Command(Sql.ClaimSeat, ("$code", code), ("$place", slot.PlaceId), ("$day", slot.Day),
            ("$minute", slot.StartMinute), ("$service", slot.ServiceId), ("$now", now)).ExecuteReader();
        return claimed.Read() ? (claimed.GetInt32(0), claimed.GetInt32(1), claimed.GetInt64(2)) : null;
    }

    /// <summary>Why no seat was free: the slot does not exist, has started, or is full.</summary>
    private ReservationStatus ProbeSlot(SlotKey slot, long now)
    {
        using var probe = Command(Sql.ProbeSlot, ("$place", slot.PlaceId), ("$day", slot.Day), ("$minute", slot.StartMinute), ("$service", slot.ServiceId)).ExecuteReader();
        if (!probe.Read() || probe.IsDBNull(0))
        {
            return ReservationStatus.UnknownSlot;
        }
        return probe.GetInt64(0) <= now ? ReservationStatus.SlotStarted : ReservationStatus.SlotFull;
    }

    /// <summary>The SMS outbox row and the change record for the flush, from the hot reservation row.</summary>
    private void Announce(ChangeKind kind, string code, long now)
    {
        Command(Sql.InsertOutbox, ("$kind", (int)kind), ("$code", code), ("$now", now)).ExecuteNonQuery();
        Command(Sql.InsertChange, ("$kind", (int)kind), ("$code", code), ("$now", now)).ExecuteNonQuery();
    }
}
