using System.Collections.Concurrent;
using System.Globalization;
using System.Text.Json;
using Hl7.Fhir.Model;

namespace Slots.Api.Finders;

/// <summary>
/// The FHIR R4 resources of SMART Scheduling Links (smart-on-fhir/smart-scheduling-links, specification.md): a Location
/// per place and a Schedule per place and service, built as Firely SDK objects, and a Slot per time, written as Firely
/// writes it.
/// </summary>
internal sealed class FhirResources(FinderOptions options)
{
    public const string DeepLinkUrl = "http://fhir-registry.smarthealthit.org/StructureDefinition/booking-deep-link";
    public const string BookingPhoneUrl = "http://fhir-registry.smarthealthit.org/StructureDefinition/booking-phone";
    public const string CapacityUrl = "http://fhir-registry.smarthealthit.org/StructureDefinition/slot-capacity";

    /// <summary>
    /// The code of the service every place offered before places named their services (services.id 1). Its Schedules
    /// and deep links keep the form they had then; every other service's deep link names its code.
    /// </summary>
    public const string DefaultService = "default";

    private readonly string _site = options.PublicUrl.EndsWith('/') ? options.PublicUrl : options.PublicUrl + "/";

    // A publication names each of its 30 days in a million Slots: each day's two spellings are made once.
    private readonly ConcurrentDictionary<int, (string Day, string Compact)> _days = new();

    public static string ScheduleId(int placeId, string service) => $"{placeId}-{service}";

    public Location Location(PublishedPlace published)
    {
        var place = published.Place;
        var location = new Location
        {
            Id = place.Id.ToString(CultureInfo.InvariantCulture),
            Meta = Meta(published.LocationUpdatedMs),
            Identifier = [new Identifier(_site + "api/places", place.Id.ToString(CultureInfo.InvariantCulture))],
            Name = place.Name,
            Status = Hl7.Fhir.Model.Location.LocationStatus.Active,
            // The place's address is one line of text here (street, postcode and town together): it goes to line and
            // text, the region to state, which is what finders filter by.
            Address = new Address { Line = [place.Address], State = place.Region, Text = place.Address },
            Telecom = [new ContactPoint(ContactPoint.ContactPointSystem.Url, null, PlacePage(place.Id))],
        };
        if (!string.IsNullOrEmpty(options.BookingPhone))
        {
            location.Telecom.Add(new ContactPoint(ContactPoint.ContactPointSystem.Phone, null, options.BookingPhone));
        }
        return location;
    }

    /// <summary>
    /// One Schedule per place and service. Its serviceType is the configured one (what finders filter by, e.g. 57
    /// Immunization); a service other than the default one adds its own code from this site's service list
    /// (GET /api/services), so finders can tell a place's services apart.
    /// </summary>
    public Schedule Schedule(PublishedPlace published, PublishedSchedule service)
    {
        var schedule = new Schedule
        {
            Id = ScheduleId(published.Place.Id, service.Code),
            Meta = Meta(service.UpdatedMs),
            ServiceType = [new CodeableConcept(options.ServiceSystem, options.ServiceCode, options.ServiceDisplay, null)],
            Actor = [new ResourceReference("Location/" + published.Place.Id.ToString(CultureInfo.InvariantCulture))],
        };
        if (service.Code != DefaultService)
        {
            schedule.ServiceType.Add(new CodeableConcept(_site + "api/services", service.Code, service.Name, service.Name));
        }
        return schedule;
    }

    /// <summary>
    /// Writes a Slot as Firely's serializer writes one (resourceType, id, meta, extension, schedule, status, start, end, in
    /// the order of the FHIR element definitions), straight to <paramref name="json"/>: a publication has a million of
    /// them, and building each as a Firely object to serialize it was most of the publication's write.
    /// PublicationTests reads every line back with Firely's parser and serializes it again, byte for byte the same.
    /// </summary>
    public void WriteSlot(Utf8JsonWriter json, PublishedPlace published, PublishedSchedule service, in PublishedSlot s)
    {
        var place = published.Place;
        var start = DateTimeOffset.FromUnixTimeSeconds(s.StartsAtUnix);
        start = start.ToOffset(place.TimeZone.GetUtcOffset(start)); // the place's own offset, as the spec prefers
        var end = start.AddMinutes(s.Minutes);
        end = end.ToOffset(place.TimeZone.GetUtcOffset(end));
        var (day, compact) = _days.GetOrAdd(s.Day, static d => (Formats.Day(DateOnly.FromDayNumber(d)),
            DateOnly.FromDayNumber(d).ToString("yyyyMMdd", CultureInfo.InvariantCulture)));
        var time = Formats.Time(s.StartMinute);
        json.WriteStartObject();
        json.WriteString("resourceType"u8, "Slot"u8);
        json.WriteString("id"u8, string.Create(CultureInfo.InvariantCulture, $"{place.Id}-{service.Code}-{compact}-{time.AsSpan(0, 2)}{time.AsSpan(3)}"));
        json.WriteStartObject("meta"u8);
        WriteInstant(json, "lastUpdated"u8, DateTimeOffset.FromUnixTimeMilliseconds(s.UpdatedMs));
        json.WriteEndObject();
        json.WriteStartArray("extension"u8);
        WriteExtension(json, DeepLinkUrl, "valueUrl"u8, DeepLink(place.Id, day, time, service.Code));
        json.WriteStartObject();
        json.WriteString("url"u8, CapacityUrl);
        json.WriteNumber("valueInteger"u8, s.PublishedCapacity);
        json.WriteEndObject();
        if (!string.IsNullOrEmpty(options.BookingPhone))
        {
            WriteExtension(json, BookingPhoneUrl, "valueString"u8, options.BookingPhone);
        }
        json.WriteEndArray();
        json.WriteStartObject("schedule"u8);
        json.WriteString("reference"u8, "Schedule/" + ScheduleId(place.Id, service.Code));
        json.WriteEndObject();
        json.WriteString("status"u8, s.IsFree ? "free"u8 : "busy"u8);
        WriteInstant(json, "start"u8, start);
        WriteInstant(json, "end"u8, end);
        json.WriteEndObject();
    }

    private static void WriteExtension(Utf8JsonWriter json, string url, ReadOnlySpan<byte> valueName, string value)
    {
        json.WriteStartObject();
        json.WriteString("url"u8, url);
        json.WriteString(valueName, value);
        json.WriteEndObject();
    }

    /// <summary>An instant as FHIR writes it: seconds, the fraction only when there is one, and the offset (+00:00 for UTC).</summary>
    private static void WriteInstant(Utf8JsonWriter json, ReadOnlySpan<byte> name, DateTimeOffset at)
    {
        Span<char> text = stackalloc char[40];
        var format = at.Millisecond == 0 ? "yyyy-MM-dd'T'HH:mm:sszzz" : "yyyy-MM-dd'T'HH:mm:ss.fffzzz";
        at.TryFormat(text, out var length, format, CultureInfo.InvariantCulture);
        json.WriteString(name, text[..length]);
    }

    /// <summary>
    /// The booking page opened at the place's week of that day with the time chosen (frontend/src/ui/useHashRoute.ts),
    /// of the service named last; the default service's links name none, as they did before services.
    /// </summary>
    public string DeepLink(int placeId, string day, string time, string service) =>
        service == DefaultService ? $"{PlacePage(placeId)}/{day}/{time}" : $"{PlacePage(placeId)}/{day}/{time}/{service}";

    private string PlacePage(int placeId) => $"{_site}#/place/{placeId.ToString(CultureInfo.InvariantCulture)}";

    private static Meta Meta(long updatedMs) => new() { LastUpdated = DateTimeOffset.FromUnixTimeMilliseconds(updatedMs) };
}
