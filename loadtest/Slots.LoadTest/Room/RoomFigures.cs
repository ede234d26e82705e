using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Room;

/// <summary>When the seats ran out and whether anyone got in after: from the staff samples and the 201s.</summary>
/// <param name="LastSeatAt">When the last 201 was read (seconds into the run).</param>
/// <param name="SoldOutSeenAt">The first sample with no seat left, after one that had seats.</param>
/// <param name="ServedAtSoldOut">The serving counter in that sample.</param>
/// <param name="AdmittedAfterSoldOut">Arrivals told admitted with a position past <paramref name="ServedAtSoldOut"/>.</param>
public sealed record SellOutFigures(double? LastSeatAt, double? SoldOutSeenAt, long? ServedAtSoldOut, long ServedAtEnd, long SeatsLeftAtEnd, long AdmittedAfterSoldOut);

/// <summary>
/// Whether everyone still waiting when the last seat went was told so: waiting = joined before it
/// and never admitted. <paramref name="AfterLastSeatMs"/>: from the last 201 to each one's first
/// no-seats-left (0 when it came first: the counter can see the seat go before the client reads the 201).
/// </summary>
public sealed record ToldFigures(long WaitingAtSellOut, long Told, long NeverTold, LatencyStats AfterLastSeatMs, long JoinedAfterSellOut, long JoinedAfterSellOutTold);

/// <summary>
/// First in, first out. <paramref name="JoinOrderInversions"/>: joins sent after the opening whose
/// place in line is behind one that was answered before they were sent.
/// <paramref name="AdmissionOrderInversions"/>: arrivals told "waiting" while someone further back
/// had been told "admitted" more than <paramref name="SlackSeconds"/> before (the instances' views of the counter
/// may differ by a refresh and a counter step).
/// </summary>
public sealed record FairnessFigures(long PostOpeningJoins, long JoinOrderInversions, long WithPosition, long AdmissionOrderInversions, double SlackSeconds);

/// <summary>The figures the checks read, taken from a run's arrival logs and samples.</summary>
public static class RoomFigures
{
    public static SellOutFigures SellOut(IReadOnlyList<ArrivalLog> arrivals, IReadOnlyList<OpeningSample> samples)
    {
        var booked = arrivals.Where(a => a.BookedAt is not null).Select(a => a.BookedAt!.Value).ToList();
        double? lastSeat = booked.Count == 0 ? null : booked.Max();
        // The counter reads seats_left = 0 until its first step: a sell-out is a 0 after seats were seen.
        OpeningSample? soldOut = null;
        var sawSeats = false;
        foreach (var s in samples.OrderBy(s => s.At))
        {
            sawSeats |= s.SeatsLeft > 0;
            if (sawSeats && s.SeatsLeft == 0)
            {
                soldOut = s;
                break;
            }
        }
        var end = samples.Count == 0 ? null : samples.MaxBy(s => s.At);
        var after = soldOut is null ? 0 : arrivals.LongCount(a => a.AdmittedAt is not null && a.Position > soldOut.Served);
        return new SellOutFigures(lastSeat, soldOut?.At, soldOut?.Served, end?.Served ?? 0, end?.SeatsLeft ?? 0, after);
    }

    public static ToldFigures Told(IReadOnlyList<ArrivalLog> arrivals, double? lastSeat)
    {
        if (lastSeat is not { } last)
        {
            return new ToldFigures(0, 0, 0, LatencyStats.Empty, 0, 0);
        }
        var waiting = arrivals.Where(a => a.JoinAt <= last && a.AdmittedAt is null &&
                                          (a.Outcome == ArrivalOutcome.NoSeatsLeft || a.EndedAt is null || a.EndedAt >= last)).ToList();
        var told = waiting.Where(a => a.NoSeatsAt is not null).ToList();
        var later = arrivals.Where(a => a.JoinAt > last).ToList();
        return new ToldFigures(waiting.Count, told.Count, waiting.Count - told.Count,
            LatencyStats.Of(told.Select(a => Math.Round(Math.Max(0, a.NoSeatsAt!.Value - last) * 1000, 1)).ToList()),
            later.Count, later.Count(a => a.NoSeatsAt is not null));
    }

    public static FairnessFigures Fairness(IReadOnlyList<ArrivalLog> arrivals, double opensAt, double slackSeconds)
    {
        // Joins after the opening: a place in line behind none answered before the join was sent.
        var joins = arrivals.Where(a => a.JoinStatus == 201 && a.JoinSentAt >= opensAt && a.Position is not null).ToList();
        var answered = joins.OrderBy(a => a.JoinAt).ToList();
        long joinInversions = 0, furthest = long.MinValue;
        var next = 0;
        foreach (var b in joins.OrderBy(a => a.JoinSentAt))
        {
            for (; next < answered.Count && answered[next].JoinAt < b.JoinSentAt; next++)
            {
                furthest = Math.Max(furthest, answered[next].Position!.Value);
            }
            if (furthest > b.Position)
            {
                joinInversions++;
            }
        }

        // Admission by position: from the back of the line forward, the earliest "admitted" seen behind each place.
        var placed = arrivals.Where(a => a.Position is not null).GroupBy(a => a.Position!.Value).OrderByDescending(g => g.Key).ToList();
        long admissionInversions = 0;
        var earliestBehind = double.PositiveInfinity;
        foreach (var group in placed)
        {
            admissionInversions += group.LongCount(a => a.LastWaitingSentAt is { } asked && earliestBehind < asked - slackSeconds);
            foreach (var a in group.Where(a => a.AdmittedAt is not null))
            {
                earliestBehind = Math.Min(earliestBehind, a.AdmittedAt!.Value);
            }
        }
        return new FairnessFigures(joins.Count, joinInversions, placed.Sum(g => g.LongCount()), admissionInversions, slackSeconds);
    }
}
