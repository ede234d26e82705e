using Slots.Reservations;

namespace Slots.Storage.Postgres.Tests;

/// <summary>
/// The finders' read of every place at once (issue 41): the database sends one row per place and day with the day's
/// slots in arrays, and the store unrolls them into the slots each place's own read gives, in the same order.
/// </summary>
public sealed partial class PostgresHotPathTests
{
    [Fact]
    public async Task Every_place_at_once_gives_each_place_s_own_slots_in_place_day_time_service_order()
    {
        await OfferPcrAsync();
        var next = Day.AddDays(1);
        var other = await ScalarAsync<int>("""
            INSERT INTO places (name, address, region, time_zone, hot_until) VALUES ('Other', 'Street 2', 'Region', 'UTC', '2099-02-01') RETURNING id
            """);
        await SeatsAsync(minute: 900, capacity: 2, service: Pcr, minutes: 20);
        await SeatsAsync(minute: 900, capacity: 3, service: Antigen, minutes: 10);
        await SeatsAsync(minute: 600, capacity: 1);
        await SeatsAsync(minute: 480, capacity: 2, day: next);
        await SeatsAsync(minute: 540, capacity: 4, place: other);
        // One seat booked and one kept for the waiting list's line: neither is free.
        await ExecuteAsync($"UPDATE hot_seats SET code = 'BOOKED' WHERE place_id = {_place} AND start_minute = 900 AND service_id = {Antigen} AND seat_no = 1");
        await ExecuteAsync($"UPDATE hot_seats SET hold = 1 WHERE place_id = {_place} AND start_minute = 900 AND service_id = {Antigen} AND seat_no = 2");

        var every = new List<SlotAvailability>();
        await foreach (var slot in Instances[0].EveryPlace(Day, next)!)
        {
            if (slot.Slot.PlaceId == _place || slot.Slot.PlaceId == other)
            {
                every.Add(slot);
            }
        }

        Assert.Equal(
            new (int, DateOnly, int, int, int, int, int)[]
            {
                (_place, Day, 600, Antigen, 10, 1, 1), (_place, Day, 900, Antigen, 10, 3, 1), (_place, Day, 900, Pcr, 20, 2, 2),
                (_place, next, 480, Antigen, 10, 2, 2), (other, Day, 540, Antigen, 10, 4, 4),
            },
            every.Select(s => (s.Slot.PlaceId, s.Slot.Day, s.Slot.StartMinute, s.Slot.ServiceId, s.Minutes, s.Capacity, s.Free)).ToArray());
        var alone = (await Instances[0].GetAvailabilityAsync(_place, Day, next, CancellationToken.None))
            .Concat(await Instances[0].GetAvailabilityAsync(other, Day, next, CancellationToken.None));
        Assert.Equal(alone, every);
    }
}
