using Hl7.Fhir.Model;
using Hl7.Fhir.Serialization;
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

        var defaultSlot = Parsed(SlotLine(resources, place, 0));
        var pcrSlot = Parsed(SlotLine(resources, place, 1));
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

    // Slots are written straight to JSON (FhirResources.WriteSlot), not through Firely's objects: each line must be what
    // Firely's serializer makes of the Slot its parser reads from it, byte for byte.
    [Theory]
    [InlineData(480, 3, 0, true, "+421 2 1234 5678")] // free, on the hour, a booking phone
    [InlineData(495, 0, 123, true, null)] // busy (every seat), a fraction of a second in lastUpdated, no phone
    [InlineData(480, 2, 7, false, "+421 2 1234 5678")] // another service
    public void A_slot_line_is_what_firely_serializes_of_the_slot_it_parses_from_it(int minute, int free, int millis, bool defaultService, string? phone)
    {
        var resources = new FhirResources(new FinderOptions { PublicUrl = "https://book.example/", BookingPhone = phone });
        var seat = new SlotAvailability(new SlotKey(7, Day, minute, defaultService ? ServiceIds.Default : Pcr.Id), 15, 3, free,
            new DateTimeOffset(2026, 12, 1, 7, 0, 0, TimeSpan.Zero).ToUnixTimeSeconds() + ((minute - 480) * 60));
        var place = PublishedPlace.Next(null, Place, [Default, Pcr], [seat], readMs: 1_800_000_000_000 + millis);

        var line = SlotLine(resources, place, 0);
        var slot = Parsed(line);

        Assert.Equal(line, Serialized(slot));
        Assert.Equal(free > 0 ? Slot.SlotStatus.Free : Slot.SlotStatus.Busy, slot.Status);
        Assert.Equal(free > 0 ? free : 3, slot.GetExtensionValue<Integer>(FhirResources.CapacityUrl)!.Value);
        Assert.Equal(phone, slot.GetExtensionValue<FhirString>(FhirResources.BookingPhoneUrl)?.Value);
        Assert.Equal(new DateTimeOffset(2026, 12, 1, 8, 0, 0, TimeSpan.FromHours(1)).AddMinutes(minute - 480), slot.Start);
        Assert.Equal(TimeSpan.FromHours(1), slot.Start!.Value.Offset); // the place's own offset
        Assert.Equal(slot.Start.Value.AddMinutes(15), slot.End);
        Assert.Equal(DateTimeOffset.FromUnixTimeMilliseconds(1_800_000_000_000 + millis), slot.Meta!.LastUpdated);
    }

    [Fact]
    public void A_slot_across_the_change_to_winter_time_ends_at_the_offset_it_ends_in()
    {
        var resources = new FhirResources(new FinderOptions { PublicUrl = "https://book.example/" });
        var day = new DateOnly(2026, 10, 25); // Bratislava: 03:00 summer time becomes 02:00 winter time
        var starts = new DateTimeOffset(2026, 10, 25, 0, 50, 0, TimeSpan.Zero); // 02:50 +02:00
        var seat = new SlotAvailability(new SlotKey(7, day, 170, ServiceIds.Default), 20, 1, 1, starts.ToUnixTimeSeconds());
        var place = PublishedPlace.Next(null, Place, [Default], [seat], readMs: 1_800_000_000_000);

        var line = SlotLine(resources, place, 0);
        var slot = Parsed(line);

        Assert.Equal(line, Serialized(slot));
        Assert.Equal(new DateTimeOffset(2026, 10, 25, 2, 50, 0, TimeSpan.FromHours(2)), slot.Start);
        Assert.Equal(TimeSpan.FromHours(2), slot.Start!.Value.Offset);
        Assert.Equal(new DateTimeOffset(2026, 10, 25, 2, 10, 0, TimeSpan.FromHours(1)), slot.End);
        Assert.Equal(TimeSpan.FromHours(1), slot.End!.Value.Offset);
    }

    private static readonly BaseFhirJsonDeserializer Parser = new(ModelInfo.ModelInspector);

    private static string SlotLine(FhirResources resources, PublishedPlace place, int slot)
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        using (var json = new System.Text.Json.Utf8JsonWriter(buffer, new System.Text.Json.JsonWriterOptions { SkipValidation = true }))
        {
            resources.WriteSlot(json, place, place.ScheduleOf(slot), place.Slots[slot]);
        }
        return System.Text.Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    private static Slot Parsed(string line)
    {
        Assert.True(Parser.TryDeserializeResource(line, out var resource, out var issues), string.Join("; ", issues.Select(i => i.Message)));
        return Assert.IsType<Slot>(resource);
    }

    private static string Serialized(Resource resource)
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        using (var json = new System.Text.Json.Utf8JsonWriter(buffer, new System.Text.Json.JsonWriterOptions { SkipValidation = true }))
        {
            new BaseFhirJsonSerializer(ModelInfo.ModelInspector).Serialize(resource, json);
        }
        return System.Text.Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    private static PublishedSlot[] SlotsOf(PublishedPlace place, int schedule) =>
        place.Slots.AsSpan(place.Schedules[schedule].First, place.Schedules[schedule].Count).ToArray();

    private static string? DeepLink(Slot slot) => slot.GetExtensionValue<FhirUrl>(FhirResources.DeepLinkUrl).Value;

    [Fact]
    public void A_slot_as_before_keeps_its_line_and_a_changed_one_or_one_of_a_place_in_another_region_or_service_code_loses_it()
    {
        var first = PublishedPlace.Next(null, Place, [Default, Pcr], [Seat(480, 3), Seat(490, 3), Seat(480, 2, Pcr.Id)], readMs: 1000);
        Assert.All(first.Lines, line => Assert.Equal(0, line)); // nothing to copy from yet
        var published = first with { Lines = [Line.Pack(0, 100, true), Line.Pack(100, 120, true), Line.Pack(220, 90, false)] };

        var second = PublishedPlace.Next(published, Place, [Default, Pcr], [Seat(480, 3), Seat(490, 1), Seat(480, 2, Pcr.Id)], readMs: 2000);
        Assert.Equal([Line.Pack(0, 100, true), 0, Line.Pack(220, 90, false)], second.Lines);

        var moved = PublishedPlace.Next(published, Place with { Region = "Košický kraj" }, [Default, Pcr],
            [Seat(480, 3), Seat(490, 3), Seat(480, 2, Pcr.Id)], readMs: 2000);
        Assert.All(moved.Lines, line => Assert.Equal(0, line));
        Assert.All(moved.Slots, slot => Assert.Equal(2000, slot.UpdatedMs)); // into another file: new to its readers

        var recoded = PublishedPlace.Next(published, Place, [Default, Pcr with { Code = "pcr-test" }],
            [Seat(480, 3), Seat(490, 3), Seat(480, 2, Pcr.Id)], readMs: 2000);
        Assert.Equal([Line.Pack(0, 100, true), Line.Pack(100, 120, true), 0], recoded.Lines);
        Assert.Equal(2000, recoded.Slots[2].UpdatedMs);
    }

    [Fact]
    public void A_file_made_of_serialized_copied_and_named_lines_holds_their_bytes_where_it_says_newest_first()
    {
        var folder = Directory.CreateTempSubdirectory("slots-ndjson-").FullName;
        try
        {
            var serializer = new Hl7.Fhir.Serialization.BaseFhirJsonSerializer(ModelInfo.ModelInspector);
            var basePath = Path.Combine(folder, "base.ndjson");
            long[] old;
            using (var earlier = new NdjsonWriter(basePath, serializer))
            {
                old = [.. new[] { "a", "b", "c", "d", "f" }.Select(id => earlier.Write(1000, new Location { Id = id }))];
                earlier.Finish("a.ndjson", "Location", "x");
            }
            Assert.All(old, line => Assert.True(Line.InBase(line)));
            using var source = File.OpenHandle(basePath);
            NdjsonFile file;
            long[] now;
            using (var writer = new NdjsonWriter(Path.Combine(folder, "b.ndjson"), serializer, asBase: false))
            {
                // b and c lie one after another in the earlier file: one run (and d and f one named part); a comes from before them.
                now = [writer.Write(3000, new Location { Id = "e" }), writer.Copy(source, old[1], 2000), writer.Copy(source, old[2], 2000),
                    writer.Copy(source, old[0], 1000)];
                writer.Reference(basePath, old[3], 1000);
                writer.Reference(basePath, old[4], 1000);
                Assert.Throws<InvalidOperationException>(() => writer.Write(900, new Location { Id = "late" })); // own lines come first
                file = writer.Finish("b.ndjson", "Location", "x");
            }
            var bytes = file.Parts.SelectMany(p => File.ReadAllBytes(p.Path).AsSpan((int)p.Offset, (int)p.Length).ToArray()).ToArray();
            var own = File.ReadAllBytes(Path.Combine(folder, "b.ndjson"));
            var lines = System.Text.Encoding.UTF8.GetString(bytes).Split('\n', StringSplitOptions.RemoveEmptyEntries);

            Assert.Equal(["e", "b", "c", "a", "d", "f"], lines.Select(l => System.Text.Json.JsonDocument.Parse(l).RootElement.GetProperty("id").GetString()));
            Assert.Equal(2, file.Parts.Count); // its own bytes, then d and f where they lie in the base
            Assert.Equal(new FilePart(basePath, Line.Offset(old[3]), Line.Length(old[3]) + Line.Length(old[4])), file.Parts[1]);
            Assert.Equal(bytes.Length, file.Length);
            for (var i = 0; i < now.Length; i++)
            {
                Assert.False(Line.InBase(now[i]));
                Assert.Equal(lines[i] + "\n", System.Text.Encoding.UTF8.GetString(own, (int)Line.Offset(now[i]), Line.Length(now[i])));
            }
            Assert.Equal([(3000L, 0L), (2000L, Line.Offset(now[1])), (1000L, Line.Offset(now[3]))], file.Starts);
            Assert.Throws<InvalidOperationException>(() =>
            {
                using var wrong = new NdjsonWriter(Path.Combine(folder, "c.ndjson"), serializer);
                wrong.Write(1000, new Location { Id = "x" });
                wrong.Write(2000, new Location { Id = "y" });
            });
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public void Since_is_answered_by_the_bytes_of_the_lines_updated_after_it()
    {
        var file = new NdjsonFile("Slot-x.ndjson", "Slot", "x", [new FilePart("/nowhere", 0, 300)], 300, [(3000, 0), (2000, 100), (1000, 250)]);

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
