using Slots.Reservations;

namespace Slots.Storage.Postgres.Tests;

/// <summary>The finders' publication reads only the place-days whose seats changed: the digests and the slots of one query.</summary>
public sealed partial class PostgresHotPathTests
{
    [Fact]
    public async Task Changed_days_name_only_the_place_days_whose_seats_changed_and_a_day_s_digest_is_its_state_not_its_history()
    {
        var next = Day.AddDays(1);
        var other = await ScalarAsync<int>("""
            INSERT INTO places (name, address, region, time_zone, hot_until) VALUES ('Other', 'Street 2', 'Region', 'UTC', '2099-02-01') RETURNING id
            """);
        await SeatsAsync(minute: 600, capacity: 2);
        await SeatsAsync(minute: 900, capacity: 1);
        await SeatsAsync(minute: 480, capacity: 2, day: next);
        await SeatsAsync(minute: 540, capacity: 1, place: other);
        var ours = new[] { _place, other };
        // Days that never change: with them a single changed day is read alone (a lookup), not from the stream of every place.
        var quiet = await ScalarAsync<int>("""
            INSERT INTO places (name, address, region, time_zone, hot_until) VALUES ('Quiet', 'Street 3', 'Region', 'UTC', '2099-02-01') RETURNING id
            """);
        for (var d = 1; d <= 5; d++)
        {
            await SeatsAsync(minute: 600, capacity: 1, day: Day.AddDays(d), place: quiet);
        }

        var first = await ChangedAsync([]);
        Assert.Equal(
            new (int, DateOnly, int, int, int)[] { (_place, Day, 600, 2, 2), (_place, Day, 900, 1, 1), (_place, next, 480, 2, 2), (other, Day, 540, 1, 1) },
            first.Select(c => (c.PlaceId, c.Day, c.Slot!.Value.Slot.StartMinute, c.Slot.Value.Capacity, c.Slot.Value.Free)).ToArray());
        var known = Digests(first);
        Assert.Equal(3, known.Count);
        Assert.Empty(await ChangedAsync(known)); // nothing changed

        var booked = await Instances[1].ReserveAsync(Command(600, person: "p1", key: "k1"), CancellationToken.None);
        var afterBooking = await ChangedAsync(known);
        // Only the day of the seat taken, every slot of it, with its free seats now.
        Assert.Equal(new (int, DateOnly, int, int)[] { (_place, Day, 600, 1), (_place, Day, 900, 1) },
            afterBooking.Select(c => (c.PlaceId, c.Day, c.Slot!.Value.Slot.StartMinute, c.Slot.Value.Free)).ToArray());
        var booking = Digests(afterBooking);
        Assert.NotEqual(known.Single(k => k.PlaceId == _place && k.Day == Day).Digest, booking.Single().Digest);

        // A seat held for the waiting list's line is not free either.
        await ExecuteAsync($"UPDATE hot_seats SET hold = 1 WHERE place_id = {_place} AND day = '{next:yyyy-MM-dd}' AND seat_no = 1");
        Assert.Equal(new (DateOnly, int, int)[] { (next, 480, 1) },
            (await ChangedAsync(known)).Where(c => c.Day == next).Select(c => (c.Day, c.Slot!.Value.Slot.StartMinute, c.Slot.Value.Free)).ToArray());

        // Cancelled again, the day is as it was before the booking, and so is its digest.
        Assert.Equal(CancelStatus.Cancelled,
            await Instances[0].CancelAsync(new CancelCommand(booked!.Value.Code!, new ContactProof("+421900000000", null), Now), CancellationToken.None));
        var afterCancel = await ChangedAsync([.. known.Where(k => (k.PlaceId, k.Day) != (_place, Day)), .. booking]);
        Assert.Equal(known.Single(k => k.PlaceId == _place && k.Day == Day).Digest, Assert.Single(Digests(afterCancel), d => d.Day == Day).Digest);

        // A day given whose seats are all gone answers one row without a slot.
        await ExecuteAsync($"DELETE FROM hot_seats WHERE place_id = {other}");
        var gone = Assert.Single(await ChangedAsync(known), c => c.PlaceId == other);
        Assert.Equal((other, Day, (SlotAvailability?)null), (gone.PlaceId, gone.Day, gone.Slot));

        async Task<List<ChangedSlot>> ChangedAsync(List<DayDigest> given)
        {
            var rows = new List<ChangedSlot>();
            await foreach (var row in Instances[0].ChangedDays(Day, Day.AddDays(5), given)!)
            {
                if (ours.Contains(row.PlaceId))
                {
                    rows.Add(row);
                }
            }
            return rows;
        }
    }

    [Fact]
    public async Task A_first_read_gives_each_day_the_digest_a_read_against_digests_gives_it()
    {
        // 40 seats a slot: the sums of their hashes run far past a bigint, either way of zero.
        for (var m = 0; m < 4; m++)
        {
            await SeatsAsync(minute: 480 + (30 * m), capacity: 40);
        }
        await SeatsAsync(minute: 600, capacity: 40, day: Day.AddDays(1));
        await ExecuteAsync($"UPDATE hot_seats SET hold = 1 WHERE place_id = {_place} AND day = '{Day:yyyy-MM-dd}' AND start_minute = 510 AND seat_no <= 7");

        // No digest given: one pass gives the slots and their days' digests.
        var first = await OursAsync([]);
        // A digest given for each day that matches none: each day read again, with the digest the database sums for it.
        var again = await OursAsync([.. first.Select(r => new DayDigest(r.PlaceId, r.Day, 0)).Distinct()]);

        Assert.Equal(5, first.Count);
        Assert.Equal(33, first.Single(r => r.Slot!.Value.Slot.StartMinute == 510).Slot!.Value.Free);
        Assert.Equal(first.Select(r => (r.Day, r.Slot)), again.Select(r => (r.Day, r.Slot)));
        Assert.Equal(Digests(again), Digests(first));
        Assert.Equal(2, Digests(first).Select(d => d.Digest).Distinct().Count());

        async Task<List<ChangedSlot>> OursAsync(List<DayDigest> given)
        {
            var rows = new List<ChangedSlot>();
            await foreach (var row in Instances[0].ChangedDays(Day, Day.AddDays(5), given)!)
            {
                if (row.PlaceId == _place)
                {
                    rows.Add(row);
                }
            }
            return rows;
        }
    }

    private static List<DayDigest> Digests(IEnumerable<ChangedSlot> rows) =>
        [.. rows.Where(r => r.Slot is not null).Select(r => new DayDigest(r.PlaceId, r.Day, r.Digest)).Distinct()];
}
