using Hl7.Fhir.Model;
using Slots.Api.Finders;
using Slots.Catalogue;
using Slots.Places;
using Slots.Reservations;

namespace Slots.Api.Tests.Finders;

/// <summary>How a publication decides what changed, and how _since maps to a file's first bytes; no database.</summary>
public sealed class PublicationTests
{
    private static readonly PlaceInfo Place = new(7, "Site", "Hlavná 1", "Žilinský kraj", TimeZoneInfo.FindSystemTimeZoneById("Europe/Bratislava"), true);
    private static readonly DateOnly Day = new(2026, 12, 1);

    private static readonly ServiceInfo Default = new(ServiceIds.Default, FhirResources.DefaultService, "Termín", "Appointment", null, true);
    private static readonly ServiceInfo Antigen = new(2, "antigen", "Antigénový test", "Antigen test", null, true);
    private static readonly ServiceInfo Pcr = new(3, "pcr", "PCR test", "PCR test", null, true);

    private static SlotAvailability Seat(int minute, int free, int service = ServiceIds.Default) =>
        new(new SlotKey(7, Day, minute, service), 10, 3, free, 1_800_000_000 + minute * 60);

    [Fact]
    public void A_slot_keeps_its_last_updated_until_its_status_or_capacity_changes_and_a_new_slot_takes_the_read_time()
    {
        var first = PublishedPlace.Next(null, Place, [Default], [Seat(480, 3), Seat(490, 3)], readMs: 1000);
        var second = PublishedPlace.Next(first, Place, [Default], [Seat(480, 3), Seat(490, 2), Seat(500, 3)], readMs: 2000);
        var third = PublishedPlace.Next(second, Place with { Name = "Renamed" }, [Default], [Seat(490, 2), Seat(500, 0)], readMs: 3000);

        Assert.Equal([1000, 2000, 2000], second.Slots.Select(s => s.UpdatedMs));
        Assert.Equal(1000, second.LocationUpdatedMs);
        Assert.Equal([2000, 3000], third.Slots.Select(s => s.UpdatedMs)); // 08:00 left; 08:20 became busy
        Assert.Equal(3000, third.LocationUpdatedMs);
        Assert.Equal(3, third.Slots[1].PublishedCapacity); // busy: every seat
        Assert.Equal(2, third.Slots[0].PublishedCapacity); // free: the free seats
    }

    [Fact]
    public void Each_offered_service_gets_its_own_schedule_with_its_own_slots_and_a_slot_of_a_service_not_offered_is_left_out()
    {
        // The rows come in start order across services, as the store gives them.
        var rows = new[] { Seat(480, 3, Antigen.Id), Seat(480, 1, Pcr.Id), Seat(480, 2, 9), Seat(490, 0, Antigen.Id), Seat(500, 3, Pcr.Id) };

        var first = PublishedPlace.Next(null, Place, [Antigen, Pcr], rows, readMs: 1000);

        Assert.Equal(["antigen", "pcr"], first.Schedules.Select(s => s.Code));
        Assert.Equal([480, 490], SlotsOf(first, 0).Select(s => (int)s.StartMinute));
        Assert.Equal([480, 500], SlotsOf(first, 1).Select(s => (int)s.StartMinute));
        Assert.Equal(4, first.Slots.Length); // service 9 is not offered here
        Assert.Equal("pcr", first.ScheduleOf(2).Code);

        // PCR's 08:00 fills; antigen is as it was: only the one slot takes the new time, and the schedules keep theirs.
        var second = PublishedPlace.Next(first, Place, [Antigen, Pcr with { NameEn = "PCR test" }],
            [Seat(480, 3, Antigen.Id), Seat(480, 0, Pcr.Id), Seat(490, 0, Antigen.Id), Seat(500, 3, Pcr.Id)], readMs: 2000);
        Assert.Equal([1000, 1000], SlotsOf(second, 0).Select(s => s.UpdatedMs));
        Assert.Equal([2000, 1000], SlotsOf(second, 1).Select(s => s.UpdatedMs));
        Assert.Equal([1000, 1000], second.Schedules.Select(s => s.UpdatedMs));

        // A renamed service is a changed Schedule; a service no longer offered leaves with its slots.
        var third = PublishedPlace.Next(second, Place, [Antigen with { NameEn = "Rapid antigen test" }],
            [Seat(480, 3, Antigen.Id), Seat(480, 0, Pcr.Id), Seat(490, 0, Antigen.Id)], readMs: 3000);
        Assert.Equal(3000, third.Schedules.Single().UpdatedMs);
        Assert.Equal([1000, 1000], third.Slots.Select(s => s.UpdatedMs));
    }

    [Fact]
    public void A_service_other_than_the_default_names_its_code_in_ids_deep_links_and_service_type()
    {
        var resources = new FhirResources(new FinderOptions { PublicUrl = "https://book.example/" });
        var place = PublishedPlace.Next(null, Place, [Default, Pcr], [Seat(480, 3), Seat(480, 2, Pcr.Id)], readMs: 1000);

        var defaultSlot = resources.Slot(place, place.Schedules[0], place.Slots[0]);
        var pcrSlot = resources.Slot(place, place.Schedules[1], place.Slots[1]);
        var pcrSchedule = resources.Schedule(place, place.Schedules[1]);

        Assert.Equal("Schedule/7-default", defaultSlot.Schedule.Reference);
        Assert.Equal("https://book.example/#/place/7/2026-12-01/08:00", DeepLink(defaultSlot));
        Assert.Equal("Schedule/7-pcr", pcrSlot.Schedule.Reference);
        Assert.Equal("7-pcr-20261201-0800", pcrSlot.Id);
        Assert.Equal("https://book.example/#/place/7/2026-12-01/08:00/pcr", DeepLink(pcrSlot));
        Assert.Equal("7-pcr", pcrSchedule.Id);
        Assert.Equal(["57", "pcr"], pcrSchedule.ServiceType.SelectMany(c => c.Coding).Select(c => c.Code));
        Assert.Equal("https://book.example/api/services", pcrSchedule.ServiceType[1].Coding.Single().System);
        Assert.Single(resources.Schedule(place, place.Schedules[0]).ServiceType);
    }

    private static PublishedSlot[] SlotsOf(PublishedPlace place, int schedule) =>
        place.Slots.AsSpan(place.Schedules[schedule].First, place.Schedules[schedule].Count).ToArray();

    private static string? DeepLink(Slot slot) => slot.GetExtensionValue<FhirUrl>(FhirResources.DeepLinkUrl).Value;

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
