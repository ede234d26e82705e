using Microsoft.EntityFrameworkCore;
using Slots.Reservations;
using Slots.Scheduler.Tests.Infrastructure;

namespace Slots.Scheduler.Tests;

/// <summary>
/// Europe/Bratislava moves its clocks on the last Sundays of March (28 March 2027, 02:00 → 03:00,
/// a 23-hour day) and October (31 October 2027, 03:00 → 02:00, a 25-hour day). A day enters the
/// window and leaves the hot tables at local midnight, whatever the offset.
/// </summary>
public sealed class DaylightSavingTests
{
    private static readonly Dictionary<string, string?> TwoDayWindow = new() { ["Slots:Window:Days"] = "2" };

    private static DateTimeOffset Utc(int month, int day, int hour, int minute) => new(2027, month, day, hour, minute, 0, TimeSpan.Zero);

    [Theory]
    [MemberData(nameof(Backend.All), MemberType = typeof(Backend))]
    public async Task Spring_forward_days_move_in_and_out_at_local_midnight(string backend)
    {
        // Saturday 27 March, 12:00 CET: the window is [27, 29).
        await using var site = await SlotsSite.StartAsync(backend, new TestClock(Utc(3, 27, 11, 0)), TwoDayWindow);
        var march = (int d) => new DateOnly(2027, 3, d);
        var place = await site.CreatePlaceAsync(march(27), march(31), capacity: 1, first: new TimeOnly(1, 0), last: new TimeOnly(3, 30));
        Assert.Equal(new[] { 27, 28 }, await HotDaysAsync(site, place));

        site.Clock.Set(Utc(3, 27, 22, 59)); // 23:59 CET on the 27th
        await RunAsync(site);
        Assert.Equal(new[] { 27, 28 }, await HotDaysAsync(site, place));

        site.Clock.Set(Utc(3, 27, 23, 0)); // midnight: the 28th begins (still CET)
        await RunAsync(site);
        Assert.Equal(new[] { 28, 29 }, await HotDaysAsync(site, place));

        // 03:00 on the 28th is 01:00 UTC (CEST); 02:00 and 02:30 do not exist and start when 03:00 does.
        var three = await site.DbAsync(db => db.HotSeats.Where(s => s.PlaceId == place && s.Day == march(28) && s.StartMinute == 180)
            .Select(s => s.StartsAt).SingleAsync());
        Assert.Equal(Utc(3, 28, 1, 0).ToUnixTimeSeconds(), three);
        site.Clock.Set(Utc(3, 28, 0, 59)); // 01:59 CET
        Assert.Equal(ReservationStatus.Reserved, (await site.ReserveAsync(place, march(28), 180)).Status);
        site.Clock.Set(Utc(3, 28, 1, 0)); // 03:00 CEST: the slot has started
        Assert.Equal(ReservationStatus.SlotStarted, (await site.ReserveAsync(place, march(28), 180)).Status);
        Assert.Equal(ReservationStatus.Reserved, (await site.ReserveAsync(place, march(28), 210)).Status); // 03:30 has not

        site.Clock.Set(Utc(3, 28, 21, 59)); // 23:59 CEST on the 28th: a 23-hour day, not over yet
        await RunAsync(site);
        Assert.Equal(new[] { 28, 29 }, await HotDaysAsync(site, place));

        site.Clock.Set(Utc(3, 28, 22, 0)); // midnight CEST: the 29th begins an hour earlier in UTC than the 28th did
        await RunAsync(site);
        Assert.Equal(new[] { 29, 30 }, await HotDaysAsync(site, place));
        // The evicted day's two reservations are in the history.
        Assert.Equal(2, await site.DbAsync(db => db.Reservations.CountAsync(r => r.Day == march(28) && r.CancelledAt == null)));
    }

    [Theory]
    [MemberData(nameof(Backend.All), MemberType = typeof(Backend))]
    public async Task Fall_back_days_move_in_and_out_at_local_midnight(string backend)
    {
        // Saturday 30 October, 12:00 CEST: the window is [30, 1 November).
        await using var site = await SlotsSite.StartAsync(backend, new TestClock(Utc(10, 30, 10, 0)), TwoDayWindow);
        var place = await site.CreatePlaceAsync(new DateOnly(2027, 10, 30), new DateOnly(2027, 11, 3), capacity: 1);
        Assert.Equal(new[] { 30, 31 }, await HotDaysAsync(site, place));

        site.Clock.Set(Utc(10, 30, 22, 0)); // midnight CEST: the 31st begins
        await RunAsync(site);
        Assert.Equal(new[] { 31, 1 }, await HotDaysAsync(site, place));

        site.Clock.Set(Utc(10, 31, 22, 59)); // 23:59 CET on the 31st: a 25-hour day, not over yet
        await RunAsync(site);
        Assert.Equal(new[] { 31, 1 }, await HotDaysAsync(site, place));

        site.Clock.Set(Utc(10, 31, 23, 0)); // midnight CET: 1 November begins
        await RunAsync(site);
        Assert.Equal(new[] { 1, 2 }, await HotDaysAsync(site, place));
    }

    private static async Task RunAsync(SlotsSite site)
    {
        await site.SyncAsync(s => s.AdvanceAsync(CancellationToken.None));
        await site.SyncAsync(s => s.EvictAsync(500, CancellationToken.None));
    }

    /// <summary>The days of the month that have hot seats at the place.</summary>
    private static async Task<int[]> HotDaysAsync(SlotsSite site, int place) =>
        [.. (await site.DbAsync(db => db.HotSeats.Where(s => s.PlaceId == place).Select(s => s.Day).Distinct().ToListAsync()))
            .Order().Select(d => d.Day)];
}
