namespace Slots.Sms.Tests;

public sealed class OutboxRelayTests
{
    private static SlotReserved Reserved(long id, string code) => new SlotReserved(id, code, "+421905000001", "sk", "P", new DateOnly(2026, 11, 23), new TimeOnly(8, 0));

    private static ReservationCancelled Cancelled(long id, string code) => new ReservationCancelled(id, code, "+421905000001", "sk", "P", new DateOnly(2026, 11, 23), new TimeOnly(8, 0));

    [Fact]
    public void Waves_put_the_messages_of_one_reservation_in_successive_waves_in_id_order()
    {
        var waves = OutboxRelay.Waves([Reserved(1, "A"), Reserved(2, "B"), Cancelled(3, "A"), Reserved(4, "C"), Cancelled(5, "B")]).ToList();

        Assert.Equal([[1L, 2L, 4L], [3L, 5L]], waves.Select(w => w.Select(m => m.Id).ToList()).ToList());
    }
}
