using Slots.Catalogue;

namespace Slots.WaitingList;

/// <summary>An entry waiting for an offer at one place, for one service, as the offer step reads it.</summary>
public sealed record Waiter(long Id, DateOnly From, DateOnly To, string Phone, string Language, string Token, int ServiceId = ServiceIds.Default)
{
    public bool Wants(DateOnly day) => day >= From && day <= To;

    /// <summary>A seat of the waiter's service on one of their days: someone waiting for a test is never offered a vaccination.</summary>
    public bool Wants(OpenSeat seat) => seat.ServiceId == ServiceId && Wants(seat.Day);
}

/// <summary>A hot seat the line could be offered: free, or kept for the line (<see cref="KeptForLine"/>), of one service's slot.</summary>
public sealed record OpenSeat(DateOnly Day, int StartMinute, int SeatNo, long StartsAt, bool KeptForLine, int ServiceId = ServiceIds.Default);

/// <summary>One offer to make: the seat held for the waiter for <see cref="Hold"/>.</summary>
public sealed record PlannedOffer(Waiter Waiter, OpenSeat Seat, TimeSpan Hold);

/// <summary>
/// Who gets which seat at one place: the rule of the waiting list, decided here once for every
/// backend. The adapters read the line and the open seats, and write what the plan says, each
/// offer in its own transaction.
/// </summary>
/// <param name="Offers">In line order: first in line first, each waiter the earliest seat of their service and days not given to someone before them.</param>
/// <param name="Releases">Seats kept for the line that nobody on it wants any more: anybody's again.</param>
public sealed record OfferPlan(IReadOnlyList<PlannedOffer> Offers, IReadOnlyList<OpenSeat> Releases)
{
    /// <summary>
    /// The plan for one place. <paramref name="line"/> is in line order; <paramref name="seats"/> are
    /// ordered by day, start and seat number and start after the last call. A waiter whose days hold
    /// no seat left is passed over, not waited for, so one narrow wish cannot stall the line.
    /// </summary>
    public static OfferPlan For(IReadOnlyList<Waiter> line, IReadOnlyList<OpenSeat> seats, DateTimeOffset now, WaitingListOptions options)
    {
        var offers = new List<PlannedOffer>();
        var given = new bool[seats.Count];
        foreach (var waiter in line)
        {
            for (var i = 0; i < seats.Count; i++)
            {
                if (!given[i] && waiter.Wants(seats[i]))
                {
                    given[i] = true;
                    offers.Add(new PlannedOffer(waiter, seats[i], options.HoldFor(DateTimeOffset.FromUnixTimeSeconds(seats[i].StartsAt), now)));
                    break;
                }
            }
        }
        // A seat given above lies in its waiter's service and days, so "nobody wants it" already leaves it out.
        var releases = seats.Where(s => s.KeptForLine && !line.Any(w => w.Wants(s))).ToList();
        return new OfferPlan(offers, releases);
    }

    /// <summary>
    /// Writes the plan's offers in line order through <paramref name="offer"/> (true when the offer
    /// was made, false when a booking or another step took the seat or the waiter first) until
    /// <paramref name="budget"/> offers are made; answers how many were. A lost offer's seat and
    /// waiter are not tried again in this step: the next step reads the place afresh.
    /// </summary>
    public async Task<int> WriteOffersAsync(int budget, Func<PlannedOffer, Task<bool>> offer)
    {
        var made = 0;
        foreach (var planned in Offers)
        {
            if (made >= budget)
            {
                break;
            }
            if (await offer(planned))
            {
                made++;
            }
        }
        return made;
    }
}
