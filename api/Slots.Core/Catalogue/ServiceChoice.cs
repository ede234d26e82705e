using Slots.Reservations;

namespace Slots.Catalogue;

/// <summary>
/// Which service a booking or an availability read means at a place (issue 41): the one it names, or,
/// when it names none, the place's only active service. A place with several answers
/// <see cref="ReservationStatus.ServiceRequired"/> with their codes; a code the place does not offer
/// (unknown, inactive, or not offered there) answers <see cref="ReservationStatus.UnknownService"/>.
/// Decided from the cached directory, before the store: it is configuration, not a race.
/// </summary>
public sealed record ServiceChoice(ServiceInfo? Service, ReservationStatus? Refusal, IReadOnlyList<string> Codes)
{
    /// <param name="offered">the place's active services (<see cref="ServiceDirectory.OfferedAtAsync"/>)</param>
    /// <param name="code">the service the client named, or null</param>
    public static ServiceChoice Of(IReadOnlyList<OfferedService> offered, string? code)
    {
        var codes = offered.Select(o => o.Service.Code).ToList();
        if (code is not null)
        {
            return offered.FirstOrDefault(o => o.Service.Code == code) is { } named
                ? new ServiceChoice(named.Service, null, codes)
                : new ServiceChoice(null, ReservationStatus.UnknownService, codes);
        }
        return offered.Count switch
        {
            1 => new ServiceChoice(offered[0].Service, null, codes),
            0 => new ServiceChoice(null, ReservationStatus.UnknownService, codes),
            _ => new ServiceChoice(null, ReservationStatus.ServiceRequired, codes),
        };
    }
}
