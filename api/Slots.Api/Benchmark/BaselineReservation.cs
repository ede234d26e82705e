using Microsoft.EntityFrameworkCore;
using Slots.Reservations;
using Slots.Storage.Ef;

namespace Slots.Api.Benchmark;

/// <summary>
/// The straightforward reservation the design is measured against: EF Core loads the slot's
/// seats from the table, finds the first free one, sets its code, adds the reservation, the
/// person row, the SMS and the change record, and saves. Correct, thanks to the concurrency
/// tokens (a lost race reloads and tries again, a bounded number of times), but with a round trip
/// per read, a change tracker per request, no idempotency cache and no batching.
/// </summary>
internal static class BaselineReservation
{
    private const int MaxAttempts = 10;

    /// <summary>The outcome and the new code; InProgress when every attempt lost a race (answered 503 + Retry-After).</summary>
    public static async Task<(ReservationStatus Status, string? Code, int Minutes)> ReserveAsync(
        DbContextOptions<BaselineDbContext> options, EfDialect dialect, BookingRequest request, DateTimeOffset now, CancellationToken ct)
    {
        var slot = request.Slot;
        var nowUnix = now.ToUnixTimeSeconds();
        for (var attempt = 0; attempt < MaxAttempts; attempt++)
        {
            await using var db = new BaselineDbContext(options);
            var person = await db.ActivePersons.FirstOrDefaultAsync(p => p.PersonHash == request.PersonHash, ct);
            if (person is not null && person.EndsAt > nowUnix)
            {
                return (ReservationStatus.AlreadyBooked, null, 0);
            }
            var seats = await db.HotSeats
                .Where(s => s.PlaceId == slot.PlaceId && s.Day == slot.Day && s.StartMinute == slot.StartMinute)
                .OrderBy(s => s.SeatNo)
                .ToListAsync(ct);
            if (seats.Count == 0)
            {
                return (ReservationStatus.UnknownSlot, null, 0);
            }
            if (seats[0].StartsAt <= nowUnix)
            {
                return (ReservationStatus.SlotStarted, null, 0);
            }
            var seat = seats.FirstOrDefault(s => s.Code is null && s.Hold == 0);
            if (seat is null)
            {
                return (ReservationStatus.SlotFull, null, 0);
            }
            var code = ConfirmationCode.New();
            seat.Code = code;
            var endsAt = seat.StartsAt + (seat.Minutes * 60L);
            if (person is null)
            {
                db.ActivePersons.Add(new ActivePerson { PersonHash = request.PersonHash, Code = code, EndsAt = endsAt });
            }
            else
            {
                person.Code = code; // a stale row: its reservation is over
                person.EndsAt = endsAt;
            }
            db.HotReservations.Add(new HotReservation
            {
                Code = code,
                PlaceId = slot.PlaceId,
                Day = slot.Day,
                StartMinute = slot.StartMinute,
                SeatNo = seat.SeatNo,
                Minutes = seat.Minutes,
                StartsAt = seat.StartsAt,
                PersonHash = request.PersonHash,
                Phone = request.Phone,
                Name = request.Name,
                Language = request.Language,
                CreatedAt = nowUnix,
            });
            db.Outbox.Add(new OutboxMessage
            {
                Kind = (int)ChangeKind.Reserved,
                Code = code,
                Phone = request.Phone,
                Language = request.Language,
                PlaceId = slot.PlaceId,
                Day = slot.Day,
                StartMinute = slot.StartMinute,
                CreatedAt = nowUnix,
            });
            db.Changes.Add(new ChangeRecord
            {
                Kind = (int)ChangeKind.Reserved,
                Code = code,
                PlaceId = slot.PlaceId,
                Day = slot.Day,
                StartMinute = slot.StartMinute,
                SeatNo = seat.SeatNo,
                PersonHash = request.PersonHash,
                Phone = request.Phone,
                Name = request.Name,
                Language = request.Language,
                CreatedAt = nowUnix,
                At = nowUnix,
            });
            try
            {
                await db.SaveChangesAsync(ct);
                return (ReservationStatus.Reserved, code, seat.Minutes);
            }
            catch (DbUpdateConcurrencyException)
            {
                // Someone took the seat (or replaced the stale person row) first: look again.
            }
            catch (DbUpdateException ex) when (ex.InnerException is { } cause && dialect.IsUniqueViolation(cause))
            {
                // The same person won a race on another request: the next look answers AlreadyBooked.
            }
        }
        return (ReservationStatus.InProgress, null, 0);
    }
}
