using Slots.Places;
using Slots.Reservations;
using Slots.Storage;
using Slots.Window;

namespace Slots.Catalogue;

/// <summary>
/// Writes slots into the disk catalogue for places × days × template. Re-running it never
/// duplicates: existing slots are kept as they are and counted. Days already inside the hot window
/// get their seats in the same transaction, so the window never misses a slot.
/// </summary>
public sealed class SlotGenerator(ICatalogStore store, PlaceDirectory directory, AvailabilitySnapshot availability)
{
    public async Task<GenerateSlotsResult> GenerateAsync(GenerateSlots request, CancellationToken ct)
    {
        var offers = (await store.OffersAsync(ct))
            .Where(o => o.ServiceId == request.ServiceId && o.Active)
            .ToDictionary(o => o.PlaceId);
        var places = (await store.AllPlacesAsync(ct))
            .Where(p => p.ClosedAt is null) // a closed place gets no new slots: they would open to bookings
            .Where(p => request.PlaceIds.Count == 0 ? p.Active : request.PlaceIds.Contains(p.Id))
            // The default service's slots are written as before services; another service's only where the place offers it.
            .Where(p => request.ServiceId == ServiceIds.Default || offers.ContainsKey(p.Id))
            .Select(p => (Place: p, Template: request.Template ?? offers.GetValueOrDefault(p.Id)?.Template,
                Capacity: request.Capacity ?? offers.GetValueOrDefault(p.Id)?.Seats))
            .Where(p => p.Template is not null && p.Capacity is not null)
            .OrderBy(p => p.Place.Id)
            .ToList();
        int created = 0, existing = 0, inWindow = 0;
        long seats = 0;
        foreach (var (place, template, capacity) in places)
        {
            var zone = TimeZoneInfo.FindSystemTimeZoneById(place.TimeZone);
            var starts = template!.StartMinutes().ToList();
            var slots = new List<SlotRow>();
            for (var day = request.From; day <= request.To; day = day.AddDays(1))
            {
                slots.AddRange(starts.Select(minute => new SlotRow
                {
                    PlaceId = place.Id,
                    Day = day,
                    StartMinute = minute,
                    ServiceId = request.ServiceId,
                    Minutes = template.LengthMinutes,
                    Capacity = capacity!.Value,
                    StartsAt = LocalClock.ToInstant(day, minute, zone).ToUnixTimeSeconds(),
                }));
            }
            var added = await store.AddSlotsAsync(place.Id, slots, request.DryRun, ct);
            created += added.Created;
            existing += added.Existing;
            inWindow += added.CreatedInWindow;
            seats += (long)added.CreatedInWindow * capacity!.Value;
        }
        if (!request.DryRun)
        {
            directory.Invalidate();
            availability.Forget(); // new seats on hot days
        }
        return new GenerateSlotsResult(places.Count, created, existing, seats, inWindow);
    }
}
