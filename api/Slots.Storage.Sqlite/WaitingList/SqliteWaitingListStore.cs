using System.Globalization;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reservations;
using Slots.Storage.Ef.WaitingList;
using Slots.WaitingList;

namespace Slots.Storage.Sqlite.WaitingList;

/// <summary>
/// The waiting list on SQLite: the shared EF side, the claim through the one writer, in the same
/// transaction as the booking it makes (the writer's own reservation step, under an
/// Idempotency-Key of the offer's): the held seat is freed and booked together (with a pair's
/// second dose), or stays held.
/// </summary>
public sealed class SqliteWaitingListStore(IServiceScopeFactory scopes, SqliteWriter writer) : EfWaitingListStore(scopes)
{
    public override async Task<ClaimAnswer> ClaimAsync(ClaimCommand command, CancellationToken ct) =>
        await writer.WriteAsync(hot => Claim(hot, command), ct);

    private static ClaimAnswer Claim(SqliteHotPath hot, ClaimCommand command)
    {
        var (token, now) = (command.Token, command.Now);
        var at = now.ToUnixTimeSeconds();
        long entry;
        string person, phone, name, language;
        int state;
        using (var read = hot.Command("SELECT id, person_hash, phone, name, language, state FROM waitlist WHERE token = $token", ("$token", token)).ExecuteReader())
        {
            if (!read.Read())
            {
                return new ClaimAnswer(ClaimStatus.NoOffer);
            }
            (entry, person, phone, name, language, state) = (read.GetInt64(0), read.GetString(1), read.GetString(2), read.GetString(3), read.GetString(4), read.GetInt32(5));
        }
        // A claim again answers the booking it made.
        using (var done = hot.Command("""
            SELECT o.place_id, o.day, o.start_minute, o.code, s.minutes, o.service_id FROM waitlist_offers o
            JOIN slots s ON s.place_id = o.place_id AND s.day = o.day AND s.start_minute = o.start_minute AND s.service_id = o.service_id
            WHERE o.entry_id = $entry AND o.state = 2 ORDER BY o.id DESC LIMIT 1
            """, ("$entry", entry)).ExecuteReader())
        {
            if (done.Read())
            {
                return new ClaimAnswer(ClaimStatus.Claimed, done.GetString(3),
                    new SlotKey(done.GetInt32(0), done.GetFieldValue<DateOnly>(1), done.GetInt32(2), done.GetInt32(5)), done.GetInt32(4));
            }
        }
        long offer, expires;
        SlotKey slot;
        int seat;
        using (var open = hot.Command("""
            SELECT id, place_id, day, start_minute, seat_no, expires_at, service_id FROM waitlist_offers
            WHERE entry_id = $entry AND state = 1 ORDER BY id DESC LIMIT 1
            """, ("$entry", entry)).ExecuteReader())
        {
            if (!open.Read())
            {
                return new ClaimAnswer(state == (int)EntryState.Expired ? ClaimStatus.Expired : ClaimStatus.NoOffer);
            }
            (offer, slot, seat, expires) = (open.GetInt64(0),
                new SlotKey(open.GetInt32(1), open.GetFieldValue<DateOnly>(2), open.GetInt32(3), open.GetInt32(6)),
                open.GetInt32(4), open.GetInt64(5));
        }
        if (expires <= at)
        {
            return new ClaimAnswer(ClaimStatus.Expired);
        }
        if (command.Offered is { } offered && offered != slot)
        {
            return new ClaimAnswer(ClaimStatus.NoOffer);
        }
        (string, object)[] key = [("$place", slot.PlaceId), ("$day", slot.Day), ("$minute", slot.StartMinute), ("$service", slot.ServiceId),
            ("$seat", seat), ("$offer", offer)];
        hot.Command("""
            UPDATE hot_seats SET hold = 0, offer_id = NULL
            WHERE place_id = $place AND day = $day AND start_minute = $minute AND service_id = $service AND seat_no = $seat AND offer_id = $offer
            """, key).ExecuteNonQuery();
        var booked = hot.Reserve(new ReserveCommand(slot, person, phone, name, language, command.NewCode,
            "waitlist-offer-" + offer.ToString(CultureInfo.InvariantCulture), "waitlist-offer", now,
            Second: command.Second, SecondCode: command.SecondCode));
        if (booked is not { Status: ReservationStatus.Reserved } result)
        {
            // Not booked: the seat stays held (the writer is alone, so nobody took it meanwhile).
            hot.Command("""
                UPDATE hot_seats SET hold = 1, offer_id = $offer
                WHERE place_id = $place AND day = $day AND start_minute = $minute AND service_id = $service AND seat_no = $seat
                  AND code IS NULL AND hold = 0
                """, key).ExecuteNonQuery();
            return new ClaimAnswer(booked?.Status switch
            {
                ReservationStatus.AlreadyBooked => ClaimStatus.AlreadyBooked,
                ReservationStatus.SecondDoseFull => ClaimStatus.SecondDoseFull,
                _ => ClaimStatus.NoOffer,
            });
        }
        hot.Command("UPDATE waitlist_offers SET state = 2, decided_at = $at, code = $code WHERE id = $offer",
            ("$at", at), ("$code", result.Code!), ("$offer", offer)).ExecuteNonQuery();
        hot.Command("UPDATE waitlist SET state = 3, decided_at = $at WHERE id = $entry", ("$at", at), ("$entry", entry)).ExecuteNonQuery();
        return new ClaimAnswer(ClaimStatus.Claimed, result.Code, slot, result.Minutes, result.Second);
    }
}
