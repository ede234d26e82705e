using Slots.LoadTest.Data;

namespace Slots.LoadTest.Room;

/// <summary>The database's side of "booked = seats": the reservations held at the scenario's place.</summary>
public static class PlaceAudit
{
    public static async Task<long> ReservationsAtAsync(Provider provider, string connectionString, int placeId, CancellationToken ct)
    {
        await using var db = await Database.OpenAsync(provider, connectionString, ct);
        return await Database.ScalarAsync(db, "SELECT count(*) FROM hot_reservations WHERE place_id = @p0", ct, placeId);
    }
}
