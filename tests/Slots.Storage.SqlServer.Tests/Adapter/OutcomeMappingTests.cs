using Slots.Reservations;
using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer.Tests.Adapter;

public sealed class OutcomeMappingTests
{
    [Theory]
    [InlineData(1, ReservationStatus.Reserved)]
    [InlineData(2, ReservationStatus.SlotFull)]
    [InlineData(3, ReservationStatus.AlreadyBooked)]
    [InlineData(4, ReservationStatus.UnknownSlot)]
    [InlineData(5, ReservationStatus.SlotStarted)]
    public void Reserve_outcomes_are_the_ReservationStatus_numbers(int outcome, ReservationStatus status)
    {
        var result = SqlServerOutcomes.Reserve(outcome, "ABCDE-FGHJK", replayed: true);

        Assert.Equal(new ReserveResult(status, "ABCDE-FGHJK", Replayed: true), result);
    }

    [Fact]
    public void A_booking_keeps_the_slot_length_dbo_reserve_batch_answered_and_other_outcomes_carry_none()
    {
        Assert.Equal(ReserveResult.Reserved("ABCDE-FGHJK", 20), SqlServerOutcomes.Reserve(1, "ABCDE-FGHJK", false, 20));
        Assert.Equal(0, SqlServerOutcomes.Reserve(3, "ABCDE-FGHJK", false, 20)!.Value.Minutes);
    }

    [Fact]
    public void Reserve_outcome_8_is_a_reused_key_which_the_port_answers_with_null() =>
        Assert.Null(SqlServerOutcomes.Reserve(8, null, replayed: false));

    [Theory]
    [InlineData(0)]
    [InlineData(6)]
    [InlineData(9)]
    public void An_unknown_reserve_outcome_is_a_bug(int outcome) =>
        Assert.Throws<InvalidOperationException>(() => SqlServerOutcomes.Reserve(outcome, null, false));

    [Theory]
    [InlineData(1, CancelStatus.Cancelled)]
    [InlineData(2, CancelStatus.NotFound)]
    [InlineData(3, CancelStatus.Started)]
    [InlineData(4, CancelStatus.CheckedIn)]
    public void Cancel_outcomes_are_the_CancelStatus_numbers(int outcome, CancelStatus status) =>
        Assert.Equal(status, SqlServerOutcomes.Cancel(outcome));

    [Theory]
    [InlineData(1, RescheduleStatus.Rescheduled)]
    [InlineData(2, RescheduleStatus.NotFound)]
    [InlineData(3, RescheduleStatus.SlotFull)]
    [InlineData(4, RescheduleStatus.UnknownSlot)]
    [InlineData(5, RescheduleStatus.SlotStarted)]
    [InlineData(6, RescheduleStatus.Started)]
    [InlineData(13, RescheduleStatus.CheckedIn)]
    public void Reschedule_outcomes_are_the_RescheduleStatus_numbers(int outcome, RescheduleStatus status) =>
        Assert.Equal(status, SqlServerOutcomes.Reschedule(outcome));

    [Fact]
    public void Seat_hints_are_non_negative_and_spread_racers_over_the_seats()
    {
        var seats = Enumerable.Range(0, 1000).Select(_ => ConfirmationCode.New())
            .Select(code => SqlServerOutcomes.SeatHint(code))
            .ToList();

        Assert.All(seats, h => Assert.True(h >= 0));
        // 1000 racers on a 50-seat slot: every seat is some racer's first choice.
        Assert.Equal(50, seats.Select(h => h % 50).Distinct().Count());
    }
}
