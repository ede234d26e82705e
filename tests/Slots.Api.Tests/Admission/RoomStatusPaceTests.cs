using Slots.Admission;

namespace Slots.Api.Tests.Admission;

/// <summary>
/// How soon a waiting person is asked to poll again: rarely in a long line with plenty of seats,
/// within a second or two when the seats may run out that soon, so "no seats left" reaches
/// everyone still waiting right after the last seat goes.
/// </summary>
public sealed class RoomStatusPaceTests
{
    private static readonly DateTimeOffset Now = new(2030, 1, 2, 8, 0, 0, TimeSpan.Zero);

    private static OpeningView View(long seatsLeft, double admitPerSecond, long served) => new(
        new Opening(7, OpeningScope.OfPlaces([1]), Now.AddMinutes(-5), admitPerSecond, TimeSpan.FromMinutes(10), 0, OpeningState.Open,
            Now.AddMinutes(-10), null, Joined: 100_000, PreQueue: 0, ShuffleKey: PreQueueShuffle.NewKey(), Served: served, seatsLeft,
            Now, CreditAtMs: 0, Version: 1),
        [],
        new HashSet<int> { 1 });

    [Fact]
    public void A_long_line_with_plenty_of_seats_asks_again_rarely()
    {
        var status = AdmissionService.StatusOf(View(seatsLeft: 10_000, admitPerSecond: 50, served: 1_000), ticket: 60_000, Now);

        Assert.Equal(RoomState.Waiting, status.State);
        Assert.Equal(TimeSpan.FromSeconds(10), status.AskAgainIn);
    }

    [Fact]
    public void Far_back_in_the_line_with_the_seats_about_to_run_out_asks_again_within_a_second_or_two()
    {
        // 40 seats at 50 admissions a second: gone in under a second, whoever is ahead.
        var status = AdmissionService.StatusOf(View(seatsLeft: 40, admitPerSecond: 50, served: 1_000), ticket: 60_000, Now);

        Assert.Equal(RoomState.Waiting, status.State);
        Assert.Equal(TimeSpan.FromSeconds(1), status.AskAgainIn);
    }

    [Fact]
    public void With_the_seats_gone_everyone_waiting_is_told_no_seats_left()
    {
        var status = AdmissionService.StatusOf(View(seatsLeft: 0, admitPerSecond: 50, served: 1_000), ticket: 60_000, Now);

        Assert.Equal(RoomState.NoSeatsLeft, status.State);
        Assert.Equal(59_000 - 1, status.Ahead);
    }
}
