using System.Globalization;
using Hl7.Fhir.Model;

namespace Slots.Api.Finders;

/// <summary>
/// The FHIR R4 resources of SMART Scheduling Links (smart-on-fhir/smart-scheduling-links, specification.md), built as
/// Firely SDK objects: a Location per place, a Schedule per place and service, a Slot per time.
/// </summary>
internal sealed class FhirResources(FinderOptions options)
{
    public const string DeepLinkUrl = "http://fhir-registry.smarthealthit.org/StructureDefinition/booking-deep-link";
    public const string BookingPhoneUrl = "http://fhir-registry.smarthealthit.org/StructureDefinition/booking-phone";
    public const string CapacityUrl = "http://fhir-registry.smarthealthit.org/StructureDefinition/slot-capacity";

    /// <summary>
    /// The one service every place offers until places name their services: it is already part of each Schedule's and
    /// Slot's id, so a second service becomes a second Schedule beside this one without renaming anything published.
    /// </summary>
    public const string DefaultService = "default";

    private readonly string _site = options.PublicUrl.EndsWith('/') ? options.PublicUrl : options.PublicUrl + "/";

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

    public Schedule Schedule(PublishedPlace published, string service) => new()
    {
        Id = ScheduleId(published.Place.Id, service),
        Meta = Meta(published.LocationUpdatedMs),
        ServiceType = [new CodeableConcept(options.ServiceSystem, options.ServiceCode, options.ServiceDisplay, null)],
        Actor = [new ResourceReference("Location/" + published.Place.Id.ToString(CultureInfo.InvariantCulture))],
    };

    public Slot Slot(PublishedPlace published, string service, in PublishedSlot s)
    {
        var place = published.Place;
        var start = DateTimeOffset.FromUnixTimeSeconds(s.StartsAtUnix);
        start = start.ToOffset(place.TimeZone.GetUtcOffset(start)); // the place's own offset, as the spec prefers
        var end = start.AddMinutes(s.Minutes);
        end = end.ToOffset(place.TimeZone.GetUtcOffset(end));
        var day = s.LocalDay.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);
        var time = Formats.Time(s.StartMinute);
        var slot = new Slot
        {
            Id = $"{ScheduleId(place.Id, service)}-{day.Replace("-", "", StringComparison.Ordinal)}-{time.Replace(":", "", StringComparison.Ordinal)}",
            Meta = Meta(s.UpdatedMs),
            Schedule = new ResourceReference("Schedule/" + ScheduleId(place.Id, service)),
            Status = s.IsFree ? Hl7.Fhir.Model.Slot.SlotStatus.Free : Hl7.Fhir.Model.Slot.SlotStatus.Busy,
            Start = start,
            End = end,
            Extension =
            [
                new Extension(DeepLinkUrl, new FhirUrl(DeepLink(place.Id, day, time))),
                new Extension(CapacityUrl, new Integer(s.PublishedCapacity)),
            ],
        };
        if (!string.IsNullOrEmpty(options.BookingPhone))
        {
            slot.Extension.Add(new Extension(BookingPhoneUrl, new FhirString(options.BookingPhone)));
        }
        return slot;
    }

    /// <summary>The booking page opened at the place's week of that day with the time chosen (frontend/src/ui/useHashRoute.ts).</summary>
    public string DeepLink(int placeId, string day, string time) => $"{PlacePage(placeId)}/{day}/{time}";

    private string PlacePage(int placeId) => $"{_site}#/place/{placeId.ToString(CultureInfo.InvariantCulture)}";

    private static Meta Meta(long updatedMs) => new() { LastUpdated = DateTimeOffset.FromUnixTimeMilliseconds(updatedMs) };
}
