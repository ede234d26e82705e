namespace Slots.Catalogue;

/// <summary>A seat of one slot as the cut reads it: its number and the code of the booking on it, or null when free.</summary>
public sealed record CutSeat(int SeatNo, string? Code);

/// <summary>A seat that keeps its state under a new number; <see cref="Code"/> is its booking, whose seat number moves with it.</summary>
public sealed record SeatMove(int From, int To, string? Code);

/// <summary>
/// How to cut one slot to a smaller capacity: the rule every backend writes under the slot's seat
/// locks. Booked seats are never dropped; free ones are, highest numbers first, and the seats kept
/// beyond the new capacity move down into the gaps, so the slot's seats stay numbered 1..capacity.
/// Writers apply <see cref="Deletions"/> before <see cref="Moves"/>: a move may land on a deleted
/// seat's number.
/// </summary>
/// <param name="BlockedBy">When the cut is refused: the codes of the bookings on the slot, by seat number,
/// because more are booked than the new capacity holds. Null when the plan can be written.</param>
public sealed record CapacityCutPlan(IReadOnlyList<int> Deletions, IReadOnlyList<SeatMove> Moves, IReadOnlyList<string>? BlockedBy)
{
    public bool Refused => BlockedBy is not null;

    /// <summary>The plan for the seats of one slot. A capacity at or above the seats it has deletes nothing.</summary>
    public static CapacityCutPlan For(IReadOnlyList<CutSeat> seats, int newCapacity)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(newCapacity, 1);
        var ordered = seats.OrderBy(s => s.SeatNo).ToList();
        for (var i = 0; i < ordered.Count; i++)
        {
            if (ordered[i].SeatNo < 1 || (i > 0 && ordered[i].SeatNo == ordered[i - 1].SeatNo))
            {
                throw new ArgumentException("Seat numbers start at 1 and are unique within a slot.", nameof(seats));
            }
        }
        var booked = ordered.Where(s => s.Code is not null).ToList();
        if (booked.Count > newCapacity)
        {
            return new CapacityCutPlan([], [], booked.Select(s => s.Code!).ToList());
        }

        // Keep every booked seat, then free ones already in range (they need no move), lowest first.
        var keep = new HashSet<int>(booked.Select(s => s.SeatNo));
        foreach (var free in ordered.Where(s => s.Code is null).OrderBy(s => s.SeatNo > newCapacity).ThenBy(s => s.SeatNo))
        {
            if (keep.Count == newCapacity)
            {
                break;
            }
            keep.Add(free.SeatNo);
        }
        var deletions = ordered.Where(s => !keep.Contains(s.SeatNo)).Select(s => s.SeatNo).ToList();
        var holes = Enumerable.Range(1, newCapacity).Where(n => !keep.Contains(n));
        var movers = ordered.Where(s => keep.Contains(s.SeatNo) && s.SeatNo > newCapacity);
        var moves = movers.Zip(holes, (seat, to) => new SeatMove(seat.SeatNo, to, seat.Code)).ToList();
        return new CapacityCutPlan(deletions, moves, null);
    }
}
