using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Hl7.Fhir.Model;
using Hl7.Fhir.Serialization;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;
using Task = System.Threading.Tasks.Task;

namespace Slots.Testing.Contracts.Finders;

/// <summary>
/// Issue #41: availability published for vaccine finders as SMART Scheduling Links, on every backend through a subclass.
/// Publications are made every second here (Slots:Finders:RefreshSeconds) so the tests need not wait a minute.
/// </summary>
public abstract class FindersContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private const string Site = "https://booking.example.sk/";
    private static readonly BaseFhirJsonDeserializer Parser = new(ModelInfo.ModelInspector);
    private static readonly Dictionary<string, string?> Settings = new()
    {
        ["Slots:Finders:RefreshSeconds"] = "1",
        ["Slots:Finders:PublicUrl"] = Site,
        ["Slots:Finders:BookingPhone"] = "+421 2 1234 5678",
    };

    private SlotsHost? _host;
    private IReadOnlyDictionary<string, string?>? _database;

    private async Task<(HttpClient Client, HttpClient Admin)> StartAsync(IReadOnlyDictionary<string, string?>? more = null)
    {
        _database = await CreateDatabaseAsync("finders");
        _host = NewHost(_database, more is null ? Settings : Settings.Concat(more).ToDictionary());
        return (_host.Client(), _host.AdminClient());
    }

    [Fact]
    public async Task Every_published_resource_parses_back_with_the_firely_sdk_and_every_reference_resolves()
    {
        var (client, admin) = await StartAsync();
        var west = await CreatePlaceWithSlotsAsync(admin, capacity: 3);
        var east = await CreatePlaceInAsync(admin, "Košický kraj");

        var response = await client.GetAsync("/fhir/$bulk-publish");
        var manifest = await JsonAsync(response);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.True(response.Headers.CacheControl!.Public);
        Assert.Matches(@"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$", manifest["transactionTime"]!.GetValue<string>());
        Assert.Equal(new Uri(client.BaseAddress!, "/fhir/$bulk-publish").ToString(), manifest["request"]!.GetValue<string>());
        Assert.Empty(manifest["error"]!.AsArray());
        var output = manifest["output"]!.AsArray().Select(o => o!.AsObject()).ToList();
        Assert.Equal(6, output.Count); // Location, Schedule and Slot for each of two regions
        Assert.All(output, o => Assert.Contains(o["type"]!.GetValue<string>(), new[] { "Location", "Schedule", "Slot" }));
        Assert.All(output, o => Assert.True(Uri.IsWellFormedUriString(o["url"]!.GetValue<string>(), UriKind.Absolute)));
        Assert.Equal(["Bratislavský kraj", "Košický kraj"],
            output.Select(o => o["extension"]!["state"]!.AsArray().Single()!.GetValue<string>()).Distinct().Order().ToList());

        var resources = new List<Resource>();
        foreach (var o in output)
        {
            var file = await client.GetAsync(o["url"]!.GetValue<string>());
            Assert.Equal(HttpStatusCode.OK, file.StatusCode);
            Assert.Equal("application/fhir+ndjson", file.Content.Headers.ContentType!.MediaType);
            var parsed = ParseAll(await file.Content.ReadAsStringAsync());
            Assert.All(parsed, r => Assert.Equal(o["type"]!.GetValue<string>(), r.TypeName));
            resources.AddRange(parsed);
        }

        var locations = resources.OfType<Location>().ToDictionary(l => "Location/" + l.Id);
        var schedules = resources.OfType<Schedule>().ToDictionary(s => "Schedule/" + s.Id);
        var slots = resources.OfType<Slot>().ToList();
        Assert.Equal([$"Location/{west}", $"Location/{east}"], locations.Keys.Order().ToList());
        Assert.Equal(2, schedules.Count);
        Assert.All(schedules.Values, s => Assert.True(locations.ContainsKey(s.Actor.Single().Reference!), s.Actor.Single().Reference));
        Assert.All(schedules.Values, s => Assert.Equal("57", s.ServiceType.Single().Coding.Single().Code));
        Assert.Equal(12, slots.Count); // two days of 08:00–08:50 at the first place, none at the second
        Assert.All(slots, s => Assert.True(schedules.ContainsKey(s.Schedule.Reference!), s.Schedule.Reference));
        Assert.All(slots, s => Assert.Equal(Slot.SlotStatus.Free, s.Status));
        Assert.All(slots, s => Assert.Equal(3, s.GetIntegerExtension("http://fhir-registry.smarthealthit.org/StructureDefinition/slot-capacity")));
        Assert.All(slots, s => Assert.Equal("+421 2 1234 5678", s.GetStringExtension("http://fhir-registry.smarthealthit.org/StructureDefinition/booking-phone")));
        Assert.All(resources, r => Assert.NotNull(r.Meta?.LastUpdated));
        var day = Today.AddDays(2);
        var first = slots.Single(s => s.Id == $"{west}-default-{day:yyyyMMdd}-0810");
        Assert.Equal(LocalClock(day, 8, 10), first.Start);
        Assert.Equal(LocalClock(day, 8, 20), first.End);
        Assert.Equal($"{Site}#/place/{west}/{Day(day)}/08:10",
            first.GetExtensionValue<FhirUrl>("http://fhir-registry.smarthealthit.org/StructureDefinition/booking-deep-link").Value);
    }

    [Fact]
    public async Task A_booking_lowers_the_capacity_then_turns_the_slot_busy_and_since_returns_only_that_slot()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 2);
        var day = Today.AddDays(2);
        var id = $"{place}-default-{day:yyyyMMdd}-0810";
        var first = await PublicationAfterAsync(client, DateTimeOffset.MinValue);
        // A publication whose transactionTime is past every lastUpdated of the first one.
        var before = await PublicationAfterAsync(client, first.AddSeconds(4));

        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(place, day, "08:10", People.Next()))).StatusCode);
        var afterOne = await PublicationAfterAsync(client, DateTimeOffset.UtcNow);
        var changed = await SinceAsync(client, before);
        Assert.Equal([id], changed.Select(r => r.Id).ToList()); // no Location, no Schedule, no other Slot
        var slot = Assert.IsType<Slot>(changed.Single());
        Assert.Equal(Slot.SlotStatus.Free, slot.Status);
        Assert.Equal(1, slot.GetIntegerExtension(FhirCapacity));
        Assert.Empty(await SinceAsync(client, afterOne.AddSeconds(30))); // nothing changed after a moment to come

        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(place, day, "08:10", People.Next()))).StatusCode);
        await PublicationAfterAsync(client, DateTimeOffset.UtcNow);
        var full = Assert.IsType<Slot>(Assert.Single(await SinceAsync(client, afterOne)));
        Assert.Equal(id, full.Id);
        Assert.Equal(Slot.SlotStatus.Busy, full.Status);
        Assert.Equal(2, full.GetIntegerExtension(FhirCapacity));
    }

    /// <summary>
    /// A publication is made from the one before: the hot store's digests name the places whose seats changed, only those
    /// are read again, and only their changed slots are serialized, the rest copied from the earlier files. What it holds
    /// must be what a publication made afresh (another instance, its first) holds, resource for resource.
    /// </summary>
    [Theory]
    [InlineData("0.25")] // the shipped share: the base's unchanged lines named where they lie
    [InlineData("0")] // a new base every publication: every line copied
    public async Task A_publication_made_from_the_one_before_holds_what_one_made_afresh_holds(string compactShare)
    {
        var (client, admin) = await StartAsync(new Dictionary<string, string?> { ["Slots:Finders:CompactShare"] = compactShare });
        var west = await CreatePlaceWithSlotsAsync(admin, capacity: 2);
        var quiet = await CreatePlaceWithSlotsAsync(admin, capacity: 2);
        var east = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var day = Today.AddDays(2);
        var first = await PublicationAfterAsync(client, DateTimeOffset.MinValue);
        // A publication whose transactionTime is past every lastUpdated of the first one.
        var before = await PublicationAfterAsync(client, first.AddSeconds(4));

        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(west, day, "08:10", People.Next()))).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(east, day.AddDays(1), "08:50", People.Next()))).StatusCode);
        var leaving = People.Next();
        var booked = await client.SendAsync(Reserve(west, day, "08:30", leaving));
        var code = (await JsonAsync(booked))["code"]!.GetValue<string>();
        Assert.Equal(HttpStatusCode.NoContent,
            (await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", leaving.Phone))).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(west, day.AddDays(1), "08:00", People.Next()))).StatusCode);
        await PublicationAfterAsync(client, DateTimeOffset.UtcNow);
        var incremental = await EverythingAsync(client);
        // Another instance, publishing once an hour: its first publication is made afresh.
        var other = NewHost(_database!, new Dictionary<string, string?>(Settings) { ["Slots:Finders:RefreshSeconds"] = "3600" }).Client();
        var afresh = await EverythingAsync(other);

        Assert.Equal(afresh, incremental);
        Assert.Contains(incremental, l => l.StartsWith($"Slot {west}-default-{day:yyyyMMdd}-0810 free 1 |", StringComparison.Ordinal));
        Assert.Contains(incremental, l => l.StartsWith($"Slot {west}-default-{day:yyyyMMdd}-0830 free 2 |", StringComparison.Ordinal)); // booked and cancelled
        Assert.Contains(incremental, l => l.StartsWith($"Slot {west}-default-{day.AddDays(1):yyyyMMdd}-0800 free 1 |", StringComparison.Ordinal));
        Assert.Contains(incremental, l => l.StartsWith($"Slot {east}-default-{day.AddDays(1):yyyyMMdd}-0850 busy 1 |", StringComparison.Ordinal));
        Assert.Contains(incremental, l => l.StartsWith($"Slot {quiet}-default-{day:yyyyMMdd}-0810 free 2 |", StringComparison.Ordinal));
        // Only what changed is newer than the publication before: the three slots whose seats changed (08:30's came back).
        var changed = await SinceAsync(client, before);
        Assert.Equal(
            new[] { $"{east}-default-{day.AddDays(1):yyyyMMdd}-0850", $"{west}-default-{day.AddDays(1):yyyyMMdd}-0800", $"{west}-default-{day:yyyyMMdd}-0810" }
                .Order(StringComparer.Ordinal),
            changed.Select(r => r.Id).Order(StringComparer.Ordinal));
        // A finder that passes back the transactionTime of the publication it read gets nothing it already has.
        Assert.Empty(await SinceAsync(other, await PublicationAfterAsync(other, DateTimeOffset.MinValue)));
    }

    /// <summary>
    /// What a publication made from the one before cannot take from it: a service a place offers since (the place is read
    /// again whole) and a day of slots added (a day no digest was kept for). Both must be there, as in one made afresh.
    /// </summary>
    [Fact]
    public async Task A_service_offered_and_a_day_of_slots_added_after_a_publication_are_in_the_next_one()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 2);
        var other = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var day = Today.AddDays(2);
        var first = await PublicationAfterAsync(client, DateTimeOffset.MinValue);
        await PublicationAfterAsync(client, first.AddSeconds(4));

        var created = await admin.PostAsJsonAsync("/api/admin/services", new { code = "pcr", nameSk = "PCR test", nameEn = "PCR test" });
        Assert.True(created.StatusCode is HttpStatusCode.Created or HttpStatusCode.BadRequest, $"creating pcr answered {created.StatusCode}");
        (await admin.PutAsJsonAsync($"/api/admin/places/{place}/services/pcr", new
        {
            seats = 3,
            template = new { firstStart = "09:00", lastStart = "09:30", intervalMinutes = 15, lengthMinutes = 15 },
        })).EnsureSuccessStatusCode();
        (await admin.PostAsJsonAsync("/api/admin/slots/generate", new { placeIds = new[] { place }, from = Day(day), to = Day(day), service = "pcr" }))
            .EnsureSuccessStatusCode();
        await GenerateSlotsAsync(admin, other, Today.AddDays(6), Today.AddDays(6), 1);
        await PublicationAfterAsync(client, DateTimeOffset.UtcNow);
        var incremental = await EverythingAsync(client);
        var afresh = await EverythingAsync(NewHost(_database!, new Dictionary<string, string?>(Settings) { ["Slots:Finders:RefreshSeconds"] = "3600" }).Client());

        Assert.Equal(afresh, incremental);
        Assert.Contains(incremental, l => l.StartsWith($"Slot {place}-pcr-{day:yyyyMMdd}-0900 free 3 |", StringComparison.Ordinal));
        Assert.Contains(incremental, l => l.StartsWith($"Slot {place}-default-{day:yyyyMMdd}-0810 free 2 |", StringComparison.Ordinal));
        Assert.Contains(incremental, l => l.StartsWith($"Slot {other}-default-{Today.AddDays(6):yyyyMMdd}-0800 free 1 |", StringComparison.Ordinal));
        Assert.Contains($"Schedule {place}-pcr", incremental);
    }

    /// <summary>
    /// A region none of whose places changed keeps the files the publication before wrote; a region whose seats changed is
    /// written again beside it. The quiet region's files must read as they did, and the whole as a publication made afresh.
    /// </summary>
    [Fact]
    public async Task A_quiet_region_reads_as_before_while_a_busy_region_beside_it_is_written_again()
    {
        var (client, admin) = await StartAsync();
        var busy = await CreatePlaceWithSlotsAsync(admin, capacity: 2); // Bratislavský kraj
        var quiet = await CreatePlaceInAsync(admin, "Košický kraj");
        var day = Today.AddDays(2);
        await GenerateSlotsAsync(admin, quiet, day, day.AddDays(1), 1);
        var first = await PublicationAfterAsync(client, DateTimeOffset.MinValue);
        var before = await PublicationAfterAsync(client, first.AddSeconds(4)); // nothing changed since the first
        var quietFiles = await RegionFilesAsync(client, "Košický kraj");
        var busyFiles = await RegionFilesAsync(client, "Bratislavský kraj");

        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(busy, day, "08:10", People.Next()))).StatusCode);
        await PublicationAfterAsync(client, DateTimeOffset.UtcNow);

        Assert.Equal(quietFiles, await RegionFilesAsync(client, "Košický kraj"));
        Assert.NotEqual(busyFiles["Slot"], (await RegionFilesAsync(client, "Bratislavský kraj"))["Slot"]);
        Assert.Equal([$"{busy}-default-{day:yyyyMMdd}-0810"], (await SinceAsync(client, before)).Select(r => r.Id).ToList());
        var incremental = await EverythingAsync(client);
        Assert.Equal(await EverythingAsync(NewHost(_database!, new Dictionary<string, string?>(Settings) { ["Slots:Finders:RefreshSeconds"] = "3600" }).Client()),
            incremental);
        Assert.Contains(incremental, l => l.StartsWith($"Slot {busy}-default-{day:yyyyMMdd}-0810 free 1 |", StringComparison.Ordinal));
        Assert.Contains(incremental, l => l.StartsWith($"Slot {quiet}-default-{day:yyyyMMdd}-0810 free 1 |", StringComparison.Ordinal));
    }

    /// <summary>The current publication's files of one region (the manifest's extension.state), by type, as served.</summary>
    private static async Task<Dictionary<string, string>> RegionFilesAsync(HttpClient client, string region)
    {
        var manifest = await client.GetFromJsonAsync<JsonObject>("/fhir/$bulk-publish");
        var files = new Dictionary<string, string>();
        foreach (var o in manifest!["output"]!.AsArray())
        {
            if (o!["extension"]?["state"]?.AsArray().Any(s => s!.GetValue<string>() == region) == true)
            {
                files.Add(o["type"]!.GetValue<string>(), await client.GetStringAsync(o["url"]!.GetValue<string>()));
            }
        }
        Assert.Equal(3, files.Count);
        return files;
    }

    /// <summary>Every resource of the current publication as one line of text each (type, id, and for a Slot its status and capacity), sorted.</summary>
    private static async Task<List<string>> EverythingAsync(HttpClient client)
    {
        var manifest = await client.GetFromJsonAsync<JsonObject>("/fhir/$bulk-publish");
        var lines = new List<string>();
        foreach (var o in manifest!["output"]!.AsArray())
        {
            foreach (var resource in ParseAll(await client.GetStringAsync(o!["url"]!.GetValue<string>())))
            {
                lines.Add(resource is Slot slot
                    ? $"Slot {slot.Id} {slot.Status.ToString()!.ToLowerInvariant()} {slot.GetIntegerExtension(FhirCapacity)} | {slot.Start} {slot.Schedule.Reference}"
                    : $"{resource.TypeName} {resource.Id}");
            }
        }
        lines.Sort(StringComparer.Ordinal);
        return lines;
    }

    [Fact]
    public async Task A_malformed_since_or_file_name_is_a_problem_naming_it_and_an_unknown_file_is_not_found()
    {
        var (client, _) = await StartAsync();

        await AssertInvalidAsync(await client.GetAsync("/fhir/$bulk-publish?_since=yesterday"), "_since");
        await AssertInvalidAsync(await client.GetAsync("/fhir/$bulk-publish?_since=2026-11-26T10:00:00"), "_since"); // no offset
        await AssertInvalidAsync(await client.GetAsync("/fhir/bulk/Slot-x.ndjson?_since=2026-13-01T00:00:00Z"), "_since");
        await AssertInvalidAsync(await client.GetAsync("/fhir/bulk/Patient-x.ndjson"), "file");
        var missing = await client.GetAsync("/fhir/bulk/Slot-nowhere.ndjson");
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
        Assert.Equal("not-found", await ProblemCodeAsync(missing));
    }

    private const string FhirCapacity = "http://fhir-registry.smarthealthit.org/StructureDefinition/slot-capacity";

    private static DateTimeOffset LocalClock(DateOnly day, int hour, int minute)
    {
        var local = day.ToDateTime(new TimeOnly(hour, minute));
        return new DateTimeOffset(local, Bratislava.GetUtcOffset(local));
    }

    private static async Task<int> CreatePlaceInAsync(HttpClient admin, string region)
    {
        var created = await admin.PostAsJsonAsync("/api/admin/places",
            new { name = $"Test site {Guid.NewGuid():N}", address = "Hlavná 1, 040 01 Košice", region, timeZone = "Europe/Bratislava" });
        created.EnsureSuccessStatusCode();
        return (await created.Content.ReadFromJsonAsync<JsonObject>())!["id"]!.GetValue<int>();
    }

    /// <summary>Polls the manifest (each poll may start the next publication) until one is newer than the instant.</summary>
    private static async Task<DateTimeOffset> PublicationAfterAsync(HttpClient client, DateTimeOffset after)
    {
        for (var i = 0; i < 150; i++)
        {
            var manifest = await client.GetFromJsonAsync<JsonObject>("/fhir/$bulk-publish");
            var at = DateTimeOffset.Parse(manifest!["transactionTime"]!.GetValue<string>(), CultureInfo.InvariantCulture);
            if (at > after)
            {
                return at;
            }
            await Task.Delay(200);
        }
        throw new TimeoutException($"No publication after {after:O}.");
    }

    private static async Task<List<Resource>> SinceAsync(HttpClient client, DateTimeOffset since)
    {
        var instant = Uri.EscapeDataString(since.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture));
        var manifest = await client.GetFromJsonAsync<JsonObject>($"/fhir/$bulk-publish?_since={instant}");
        var resources = new List<Resource>();
        foreach (var o in manifest!["output"]!.AsArray())
        {
            var url = o!["url"]!.GetValue<string>();
            Assert.EndsWith("?_since=" + instant, url);
            resources.AddRange(ParseAll(await client.GetStringAsync(url)));
        }
        return resources;
    }

    private static List<Resource> ParseAll(string ndjson)
    {
        var resources = new List<Resource>();
        foreach (var line in ndjson.Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            Assert.True(Parser.TryDeserializeResource(line, out var resource, out var issues), string.Join("; ", issues.Select(i => i.Message)));
            resources.Add(resource!);
        }
        return resources;
    }
}
