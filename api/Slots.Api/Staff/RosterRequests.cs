using System.Globalization;
using Slots.Catalogue;
using Slots.Places;
using Slots.Reservations;
using Slots.Staff;
using Slots.Window;

namespace Slots.Api.Staff;

/// <summary>The roster's query parameters read into a query (or field errors), its rows as DTOs, and its CSV.</summary>
internal static class RosterRequests
{
    private const int MaxPageSize = StaffEndpoints.MaxPageSize;

    public static async Task<RosterQuery?> QueryAsync(string placeId, string? day, string? from, string? to, string? state, string? code,
        string? page, string? pageSize, PlaceDirectory places, TimeProvider clock, Validation v, CancellationToken ct)
    {
        Formats.TryId(placeId, out int id);
        var place = await places.FindAsync(id, ct);
        var date = place is null ? default : LocalClock.Today(place, clock.GetUtcNow());
        if (day is not null && !Formats.TryDay(day, out date))
        {
            v.Add("day", $"Use {Formats.DayFormat}.");
        }
        var first = 0;
        if (from is not null)
        {
            first = Formats.TryTime(from, out var t) ? SlotKey.MinuteOf(t) : Invalid(v, "from", "Use HH:mm.");
        }
        var last = 24 * 60;
        if (to is not null)
        {
            last = Formats.TryTime(to, out var t) ? SlotKey.MinuteOf(t) : Invalid(v, "to", "Use HH:mm.");
        }
        RosterState? wanted = state switch
        {
            null => null,
            "booked" => RosterState.Booked,
            "checked-in" => RosterState.CheckedIn,
            "no-show" => RosterState.NoShow,
            "cancelled" => RosterState.Cancelled,
            "cancelled-by-site" => RosterState.CancelledBySite,
            _ => null,
        };
        if (state is not null && wanted is null)
        {
            v.Add("state", "One of booked, checked-in, no-show, cancelled, cancelled-by-site.");
        }
        if (code is { Length: > 32 })
        {
            v.Add("code", "A booking code has at most 32 characters.");
        }
        var pageNo = 1;
        if (page is not null && (!Formats.TryWhole(page, out pageNo) || pageNo is < 1 or > 10_000))
        {
            v.Add("page", "A whole number from 1 to 10000.");
        }
        var size = 100;
        if (pageSize is not null && (!Formats.TryWhole(pageSize, out size) || size < 1 || size > MaxPageSize))
        {
            v.Add("pageSize", $"A whole number from 1 to {MaxPageSize}.");
        }
        if (!v.IsValid || place is null)
        {
            return null;
        }
        var normalized = code is null ? null : ConfirmationCode.Normalize(code) ?? code;
        return new RosterQuery(id, date, first, last, wanted, normalized, pageNo, size);
    }

    private static int Invalid(Validation v, string field, string message)
    {
        v.Add(field, message);
        return 0;
    }

    public static RosterRowDto Row(RosterRow r, IReadOnlyList<ServiceInfo> services) => new(
        Formats.Time(r.StartMinute), r.Minutes, r.SeatNo, r.Code, r.Name, StaffAccess.Mask(r.Phone), r.Language, State(r.State), r.At, r.By,
        services.FirstOrDefault(s => s.Id == r.ServiceId)?.Code ?? ServiceIds.DefaultCode);

    private static string State(RosterState state) => state switch
    {
        RosterState.Booked => "booked",
        RosterState.CheckedIn => "checked-in",
        RosterState.NoShow => "no-show",
        RosterState.Cancelled => "cancelled",
        RosterState.CancelledBySite => "cancelled-by-site",
        _ => throw new InvalidOperationException($"Unmapped roster state {state}."),
    };

    /// <summary>The roster's rows as a CSV file (<see cref="CsvFile"/>).</summary>
    public static byte[] Csv(IEnumerable<RosterRowDto> rows) =>
        CsvFile.Of(["time", "minutes", "seat", "code", "name", "phone", "language", "state", "at", "by", "service"],
            rows.Select(r => new[]
            {
                r.Time, r.Minutes.ToString(CultureInfo.InvariantCulture), r.Seat.ToString(CultureInfo.InvariantCulture), r.Code,
                r.Name, r.Phone, r.Language, r.State, r.At?.ToString("O", CultureInfo.InvariantCulture) ?? "", r.By ?? "", r.Service,
            }));
}
