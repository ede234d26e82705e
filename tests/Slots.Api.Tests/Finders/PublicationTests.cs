using Slots.Api.Finders;
using Slots.Places;
using Slots.Reservations;

namespace Slots.Api.Tests.Finders;

/// <summary>How a publication decides what changed, and how _since maps to a file's first bytes; no database.</summary>
public sealed class PublicationTests
{
    private static readonly PlaceInfo Place = new(7, "Site", "Hlavná 1", "Žilinský kraj", TimeZoneInfo.FindSystemTimeZoneById("Europe/Bratislava"), true);
    private static readonly DateOnly Day = new(2026, 12, 1);

    private static SlotAvailability Seat(int minute, int free) => new(new SlotKey(7, Day, minute), 10, 3, free, 1_800_000_000 + minute * 60);

    [Fact]
    public void A_slot_keeps_its_last_updated_until_its_status_or_capacity_changes_and_a_new_slot_takes_the_read_time()
    {
        var first = PublishedPlace.Next(null, Place, [Seat(480, 3), Seat(490, 3)], readMs: 1000);
        var second = PublishedPlace.Next(first, Place, [Seat(480, 3), Seat(490, 2), Seat(500, 3)], readMs: 2000);
        var third = PublishedPlace.Next(second, Place with { Name = "Renamed" }, [Seat(490, 2), Seat(500, 0)], readMs: 3000);

        Assert.Equal([1000, 2000, 2000], second.Slots.Select(s => s.UpdatedMs));
        Assert.Equal(1000, second.LocationUpdatedMs);
        Assert.Equal([2000, 3000], third.Slots.Select(s => s.UpdatedMs)); // 08:00 left; 08:20 became busy
        Assert.Equal(3000, third.LocationUpdatedMs);
        Assert.Equal(3, third.Slots[1].PublishedCapacity); // busy: every seat
        Assert.Equal(2, third.Slots[0].PublishedCapacity); // free: the free seats
    }

    [Fact]
    public void Since_is_answered_by_the_bytes_of_the_lines_updated_after_it()
    {
        var file = new NdjsonFile("Slot-x.ndjson", "Slot", "x", "/nowhere", 300, [(3000, 0), (2000, 100), (1000, 250)]);

        Assert.Equal(300, file.PrefixSince(null));
        Assert.Equal(0, file.PrefixSince(3000));
        Assert.Equal(0, file.PrefixSince(5000));
        Assert.Equal(100, file.PrefixSince(2999));
        Assert.Equal(100, file.PrefixSince(2000));
        Assert.Equal(250, file.PrefixSince(1999));
        Assert.Equal(300, file.PrefixSince(999));
    }

    [Fact]
    public void Region_file_names_are_ascii_and_unique()
    {
        var slugs = Regions.Slugs(["Bratislavský kraj", "Žilinský kraj", "Zilinsky kraj", "Žilinský kraj", "!!!"]);

        Assert.Equal("bratislavsky-kraj", slugs["Bratislavský kraj"]);
        Assert.Equal("zilinsky-kraj", slugs["Zilinsky kraj"]);
        Assert.Equal("zilinsky-kraj-2", slugs["Žilinský kraj"]);
        Assert.Equal("region", slugs["!!!"]);
    }
}
