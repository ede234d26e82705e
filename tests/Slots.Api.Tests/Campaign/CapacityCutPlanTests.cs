using System.Globalization;
using Slots.Catalogue;

namespace Slots.Api.Tests.Campaign;

/// <summary>Cutting a slot's seats: free seats go, booked ones stay and move down, and a cut below the bookings is refused by name.</summary>
public sealed class CapacityCutPlanTests
{
    private static CutSeat Free(int seat) => new(seat, null);

    private static CutSeat Booked(int seat) => new(seat, $"CODE{seat}");

    /// <summary>The seats after writing the plan, deletions first, as a backend does.</summary>
    private static List<CutSeat> Apply(IEnumerable<CutSeat> seats, CapacityCutPlan plan)
    {
        var after = seats.Where(s => !plan.Deletions.Contains(s.SeatNo)).ToDictionary(s => s.SeatNo);
        foreach (var move in plan.Moves)
        {
            var seat = after[move.From];
            after.Remove(move.From);
            Assert.Equal(seat.Code, move.Code);
            Assert.True(after.TryAdd(move.To, seat with { SeatNo = move.To }), $"seat {move.To} taken twice");
        }
        return [.. after.Values.OrderBy(s => s.SeatNo)];
    }

    [Fact]
    public void Free_seats_at_the_top_are_deleted_and_nothing_moves()
    {
        CutSeat[] seats = [Booked(1), Booked(2), Free(3), Free(4), Free(5)];

        var plan = CapacityCutPlan.For(seats, 3);

        Assert.False(plan.Refused);
        Assert.Equal([4, 5], plan.Deletions);
        Assert.Empty(plan.Moves);
    }

    [Fact]
    public void A_booked_seat_above_the_new_capacity_moves_into_a_freed_number()
    {
        CutSeat[] seats = [Free(1), Booked(2), Free(3), Free(4), Booked(5)];

        var plan = CapacityCutPlan.For(seats, 2);

        Assert.Equal([1, 3, 4], plan.Deletions);
        Assert.Equal([new SeatMove(5, 1, "CODE5")], plan.Moves);
        Assert.Equal([new CutSeat(1, "CODE5"), new CutSeat(2, "CODE2")], Apply(seats, plan));
    }

    [Fact]
    public void A_cut_exactly_at_the_bookings_keeps_every_booking_and_no_free_seat()
    {
        CutSeat[] seats = [Booked(1), Free(2), Booked(3), Free(4), Booked(5), Free(6)];

        var plan = CapacityCutPlan.For(seats, 3);

        Assert.False(plan.Refused);
        var after = Apply(seats, plan);
        Assert.Equal([1, 2, 3], after.Select(s => s.SeatNo));
        Assert.Equal(["CODE1", "CODE3", "CODE5"], after.Select(s => s.Code).Order());
    }

    [Fact]
    public void A_cut_below_the_bookings_is_refused_naming_every_booking()
    {
        CutSeat[] seats = [Free(1), Booked(4), Booked(2), Free(3)];

        var plan = CapacityCutPlan.For(seats, 1);

        Assert.True(plan.Refused);
        Assert.Equal(["CODE2", "CODE4"], plan.BlockedBy);
        Assert.Empty(plan.Deletions);
        Assert.Empty(plan.Moves);
    }

    [Fact]
    public void A_cut_to_one_free_seat()
    {
        CutSeat[] seats = [Free(1), Free(2), Free(3)];

        var plan = CapacityCutPlan.For(seats, 1);

        Assert.Equal([2, 3], plan.Deletions);
        Assert.Equal([Free(1)], Apply(seats, plan));
    }

    [Fact]
    public void A_capacity_at_or_above_the_seats_deletes_nothing()
    {
        CutSeat[] seats = [Booked(1), Free(2), Booked(3)];

        foreach (var capacity in new[] { 3, 5 })
        {
            var plan = CapacityCutPlan.For(seats, capacity);
            Assert.Empty(plan.Deletions);
            Assert.Empty(plan.Moves);
            Assert.False(plan.Refused);
        }
    }

    [Fact]
    public void Every_cut_of_every_small_slot_keeps_the_bookings_and_numbers_seats_one_to_capacity()
    {
        // All 2^6 ways to book six seats, cut to every capacity from 1 to 6.
        for (var mask = 0; mask < 64; mask++)
        {
            var seats = Enumerable.Range(1, 6).Select(n => (mask & (1 << (n - 1))) != 0 ? Booked(n) : Free(n)).ToList();
            var booked = seats.Where(s => s.Code is not null).Select(s => s.Code).Order().ToList();
            for (var capacity = 1; capacity <= 6; capacity++)
            {
                var plan = CapacityCutPlan.For(seats, capacity);
                if (booked.Count > capacity)
                {
                    Assert.Equal(booked, plan.BlockedBy!.Order());
                    continue;
                }
                var after = Apply(seats, plan);
                Assert.Equal(Enumerable.Range(1, capacity), after.Select(s => s.SeatNo));
                Assert.Equal(booked, after.Where(s => s.Code is not null).Select(s => s.Code).Order());
                // Only booked seats above the new capacity move: a free seat in range is kept rather than one moved.
                Assert.All(plan.Moves, m => Assert.True(m.From > capacity && m.To <= capacity && m.Code is not null));
                Assert.Equal(booked.Count(c => int.Parse(c![4..], CultureInfo.InvariantCulture) > capacity), plan.Moves.Count);
            }
        }
    }

    [Fact]
    public void Broken_input_is_a_bug_not_a_refusal()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => CapacityCutPlan.For([Free(1)], 0));
        Assert.Throws<ArgumentException>(() => CapacityCutPlan.For([Free(1), Booked(1)], 1));
        Assert.Throws<ArgumentException>(() => CapacityCutPlan.For([Free(0)], 1));
    }
}
