using System.Data;
using Slots.Api.Places;
using Slots.Reservations;
using Slots.Storage.Ef;

namespace Slots.Api.Tests.Api;

/// <summary>How an availability answer is put together from the slots read: by day, without the slots that have started.</summary>
public sealed class AvailabilityDaysTests
{
    private static readonly DateOnly Monday = new(2026, 12, 7);
    private const long Now = 1_000_000;

    [Fact]
    public void Started_slots_leave_the_answer_a_day_left_without_any_goes_and_the_first_start_is_the_earliest_still_open()
    {
        SlotAvailability[] slots =
        [
            Slot(Monday, 9 * 60, startsAt: Now - 60),
            Slot(Monday, 10 * 60, startsAt: Now),
            Slot(Monday.AddDays(1), 9 * 60, startsAt: Now + 500, free: 2),
            Slot(Monday.AddDays(1), 10 * 60, startsAt: Now + 900),
            Slot(Monday.AddDays(2), 8 * 60, startsAt: Now + 90_000, free: 0),
        ];

        var days = PlacesEndpoints.Days(slots, Now, out var firstStart);

        Assert.Equal(["2026-12-08", "2026-12-09"], days.Select(d => d.Day));
        Assert.Equal([new SlotDto("09:00", 15, 3, 2), new SlotDto("10:00", 15, 3, 3)], days[0].Slots);
        Assert.Equal([new SlotDto("08:00", 15, 3, 0)], days[1].Slots);
        Assert.Equal(Now + 500, firstStart);
    }

    [Fact]
    public void Slots_out_of_day_order_give_each_day_once_in_day_order_with_its_slots_in_the_order_read()
    {
        SlotAvailability[] slots =
        [
            Slot(Monday.AddDays(1), 9 * 60, startsAt: Now + 2),
            Slot(Monday, 11 * 60, startsAt: Now + 3),
            Slot(Monday.AddDays(1), 8 * 60, startsAt: Now + 4),
            Slot(Monday, 10 * 60, startsAt: Now + 5),
        ];

        var days = PlacesEndpoints.Days(slots, Now, out var firstStart);

        Assert.Equal(["2026-12-07", "2026-12-08"], days.Select(d => d.Day));
        Assert.Equal(["11:00", "10:00"], days[0].Slots.Select(s => s.Time));
        Assert.Equal(["09:00", "08:00"], days[1].Slots.Select(s => s.Time));
        Assert.Equal(Now + 2, firstStart);
    }

    [Fact]
    public void Nothing_open_is_no_day_and_no_first_start()
    {
        var days = PlacesEndpoints.Days([Slot(Monday, 9 * 60, startsAt: Now)], Now, out var firstStart);

        Assert.Empty(days);
        Assert.Equal(long.MaxValue, firstStart);
    }

    [Fact]
    public async Task A_read_of_more_rows_than_the_first_buffer_holds_gives_every_row_in_order_in_an_array_of_their_count()
    {
        using var table = new DataTable();
        table.Columns.Add("day", typeof(DateOnly));
        foreach (var column in new[] { "start_minute", "minutes", "capacity", "free" })
        {
            table.Columns.Add(column, typeof(int));
        }
        table.Columns.Add("starts_at", typeof(long));
        table.Columns.Add("service_id", typeof(int));
        const int rows = 1_020;   // a place's 30 hot days of 34 times: past the pooled buffer's first 256 rows, twice
        for (var i = 0; i < rows; i++)
        {
            table.Rows.Add(Monday.AddDays(i / 34), 8 * 60 + i % 34 * 15, 15, 5, i % 6, Now + i, 1 + i % 2);
        }
        using var reader = table.CreateDataReader();

        var read = await StorageRows.AvailabilityAsync(reader, 42, CancellationToken.None);

        Assert.Equal(rows, read.Length);
        Assert.All(read.Select((slot, i) => (slot, i)), x =>
            Assert.Equal(new SlotAvailability(new SlotKey(42, Monday.AddDays(x.i / 34), 8 * 60 + x.i % 34 * 15, 1 + x.i % 2), 15, 5, x.i % 6, Now + x.i), x.slot));
    }

    private static SlotAvailability Slot(DateOnly day, int minute, long startsAt, int free = 3) =>
        new(new SlotKey(1, day, minute), 15, 3, free, startsAt);
}
