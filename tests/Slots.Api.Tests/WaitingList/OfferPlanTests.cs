using Slots.WaitingList;

namespace Slots.Api.Tests.WaitingList;

/// <summary>Who gets which seat, decided without a database: the rule every backend's offer step writes.</summary>
public sealed class OfferPlanTests
{
    private static readonly DateTimeOffset Now = new(2026, 3, 2, 8, 0, 0, TimeSpan.Zero);
    private static readonly DateOnly Monday = new(2026, 3, 2);
    private static readonly WaitingListOptions Options = new();

    private static Waiter W(long id, int fromDay, int toDay) =>
        new(id, Monday.AddDays(fromDay), Monday.AddDays(toDay), "+421900000000", "sk", $"t{id}");

    private static OpenSeat S(int day, int minute, int seat = 1, bool kept = false) =>
        new(Monday.AddDays(day), minute, seat, Now.AddDays(day).AddMinutes(minute).ToUnixTimeSeconds(), kept);

    [Fact]
    public void First_in_line_gets_the_earliest_seat_of_their_days()
    {
        var seats = new[] { S(1, 600), S(1, 660), S(2, 600) };

        var plan = OfferPlan.For([W(1, 1, 2), W(2, 1, 2)], seats, Now, Options);

        Assert.Equal([(1L, seats[0]), (2L, seats[1])], plan.Offers.Select(o => (o.Waiter.Id, o.Seat)));
    }

    [Fact]
    public void A_waiter_whose_days_have_no_seat_left_is_passed_over_and_the_next_is_served()
    {
        var seats = new[] { S(1, 600), S(3, 600) };

        var plan = OfferPlan.For([W(1, 1, 1), W(2, 1, 1), W(3, 3, 3)], seats, Now, Options);

        Assert.Equal([1L, 3L], plan.Offers.Select(o => o.Waiter.Id));
        Assert.Equal(seats[1], plan.Offers[1].Seat);
    }

    [Fact]
    public void A_waiter_is_offered_only_seats_of_their_service_and_a_kept_seat_of_a_service_nobody_waits_for_is_released()
    {
        const int Antigen = 1, Pcr = 2;
        var pcrKept = S(1, 540, kept: true) with { ServiceId = Pcr };
        var antigen = S(1, 600) with { ServiceId = Antigen };

        var plan = OfferPlan.For([W(1, 1, 1) with { ServiceId = Antigen }, W(2, 1, 1) with { ServiceId = Antigen }], [pcrKept, antigen], Now, Options);

        Assert.Equal([(1L, antigen)], plan.Offers.Select(o => (o.Waiter.Id, o.Seat)));
        Assert.Equal([pcrKept], plan.Releases);
    }

    [Fact]
    public void A_seat_kept_for_the_line_is_offered_like_a_free_one()
    {
        var kept = S(1, 540, kept: true);

        var plan = OfferPlan.For([W(1, 1, 1)], [kept, S(1, 600)], Now, Options);

        Assert.Same(kept, plan.Offers.Single().Seat);
        Assert.Empty(plan.Releases);
    }

    [Fact]
    public void Kept_seats_nobody_on_the_line_wants_are_released_and_free_ones_are_left_alone()
    {
        var unwanted = S(5, 600, kept: true);
        var wanted = S(1, 600, seat: 2, kept: true);

        var plan = OfferPlan.For([W(1, 1, 1), W(2, 1, 1)], [S(1, 600), wanted, unwanted, S(6, 600)], Now, Options);

        Assert.Equal([unwanted], plan.Releases);
    }

    [Fact]
    public void A_kept_seat_wanted_but_not_given_this_step_is_not_released()
    {
        var kept = S(2, 600, kept: true);

        var plan = OfferPlan.For([W(1, 1, 1), W(2, 1, 2)], [S(1, 600), S(1, 660), kept], Now, Options);

        Assert.DoesNotContain(plan.Offers, o => o.Seat == kept);
        Assert.Empty(plan.Releases);
    }

    [Fact]
    public void An_empty_line_releases_every_kept_seat_and_offers_nothing()
    {
        var plan = OfferPlan.For([], [S(1, 600, kept: true), S(1, 660)], Now, Options);

        Assert.Empty(plan.Offers);
        Assert.Single(plan.Releases);
    }

    [Fact]
    public void A_seat_starting_soon_is_held_for_the_backfill_hold_and_a_later_one_for_the_full_hold()
    {
        var soon = new OpenSeat(Monday, 600, 1, Now.AddHours(1).ToUnixTimeSeconds(), false);
        var later = S(2, 600);

        var plan = OfferPlan.For([W(1, 0, 0), W(2, 2, 2)], [soon, later], Now, Options);

        Assert.Equal([Options.BackfillHold, Options.Hold], plan.Offers.Select(o => o.Hold));
    }

    [Fact]
    public async Task Writing_stops_at_the_budget_counting_only_offers_made()
    {
        var plan = OfferPlan.For([W(1, 1, 1), W(2, 1, 1), W(3, 1, 1), W(4, 1, 1)],
            [S(1, 600), S(1, 660), S(1, 720), S(1, 780)], Now, Options);
        var tried = new List<long>();

        // The second waiter's seat was taken by a booking meanwhile: that try does not spend the budget.
        var made = await plan.WriteOffersAsync(2, o =>
        {
            tried.Add(o.Waiter.Id);
            return Task.FromResult(o.Waiter.Id != 2);
        });

        Assert.Equal(2, made);
        Assert.Equal([1L, 2L, 3L], tried);
    }

    [Fact]
    public async Task A_spent_budget_writes_nothing()
    {
        var plan = OfferPlan.For([W(1, 1, 1)], [S(1, 600)], Now, Options);

        var made = await plan.WriteOffersAsync(0, _ => throw new InvalidOperationException("no offer may be written"));

        Assert.Equal(0, made);
    }
}
