using Microsoft.EntityFrameworkCore;
using Slots.Reservations;
using Slots.Scheduler.Tests.Infrastructure;
using Slots.Storage;

namespace Slots.Scheduler.Tests;

/// <summary>The window jobs' operations on each backend, with the clock in the test's hand.</summary>
public sealed class WindowSyncTests
{
    // 12:00 in Bratislava (CEST), far from a daylight-saving change: today is 10 May, the window [10 May, 9 June).
    private static readonly DateTimeOffset Start = new(2027, 5, 10, 10, 0, 0, TimeSpan.Zero);
    private static readonly DateOnly Today = new(2027, 5, 10);
    private const int Eight = 8 * 60, Nine = 9 * 60;

    [Theory]
    [MemberData(nameof(Backend.All), MemberType = typeof(Backend))]
    public async Task A_day_crossing_into_the_window_keeps_every_cold_path_reservation(string backend)
    {
        await using var site = await SlotsSite.StartAsync(backend, new TestClock(Start));
        var place = await site.CreatePlaceAsync(Today, Today.AddDays(35), capacity: 2);
        var june10 = Today.AddDays(31);
        var firstPerson = site.NextPerson();
        var first = await site.ReserveAsync(place, june10, Eight, firstPerson);
        var second = await site.ReserveAsync(place, june10, Eight);
        var later = await site.ReserveAsync(place, june10.AddDays(1), Nine);
        var cancelledPerson = site.NextPerson();
        var cancelled = await site.ReserveAsync(place, june10, Nine, cancelledPerson);
        Assert.Equal(CancelStatus.Cancelled, await site.CancelAsync(cancelled.Code!, cancelledPerson));
        Assert.All([first, second, later], a => Assert.Equal(ReservationStatus.Reserved, a.Status));
        Assert.DoesNotContain(await site.HotAsync(), r => r.Item1 == first.Code);

        site.Clock.Advance(TimeSpan.FromDays(2)); // today 12 May: 9 and 10 June enter the window
        var moved = await site.SyncAsync(s => s.AdvanceAsync(CancellationToken.None));

        Assert.Equal(2, moved.Reservations);
        var hot = await site.HotAsync();
        var disk = await site.DiskActiveAsync();
        Assert.Equal(disk.Where(r => r.Item3 == june10), hot.Where(r => r.Item3 == june10));
        Assert.Equal(new[] { first.Code, second.Code }.Order(), hot.Where(r => r.Item3 == june10).Select(r => r.Item1).Order());
        Assert.DoesNotContain(hot, r => r.Item1 == cancelled.Code || r.Item1 == later.Code);
        var seats = await site.DbAsync(db => db.HotSeats.Where(s => s.PlaceId == place && s.Day == june10 && s.StartMinute == Eight)
            .Select(s => s.Code).ToListAsync());
        Assert.Equal(new[] { first.Code, second.Code }.Order(), seats.Order());
        // The seats are really taken: the hot path finds the slot full, and the cancelled seat free.
        Assert.Equal(ReservationStatus.SlotFull, (await site.ReserveAsync(place, june10, Eight)).Status);
        Assert.Equal(ReservationStatus.Reserved, (await site.ReserveAsync(place, june10, Nine)).Status);
        // And its holder still holds it: one reservation per person across the move.
        Assert.Equal(ReservationStatus.AlreadyBooked, (await site.ReserveAsync(place, june10.AddDays(2), Eight, firstPerson)).Status);
    }

    [Theory]
    [MemberData(nameof(Backend.All), MemberType = typeof(Backend))]
    public async Task A_day_leaving_the_window_keeps_every_hot_reservation_in_history(string backend)
    {
        await using var site = await SlotsSite.StartAsync(backend, new TestClock(Start));
        var place = await site.CreatePlaceAsync(Today, Today.AddDays(3), capacity: 3);
        var tomorrow = Today.AddDays(1);
        var kept = await site.ReserveAsync(place, tomorrow, Eight);
        var cancelPerson = site.NextPerson();
        var cancelled = await site.ReserveAsync(place, tomorrow, Nine, cancelPerson);
        var movePerson = site.NextPerson();
        var moved = await site.ReserveAsync(place, tomorrow, Nine, movePerson);
        Assert.Equal(CancelStatus.Cancelled, await site.CancelAsync(cancelled.Code!, cancelPerson));
        Assert.Equal(RescheduleStatus.Rescheduled, await site.RescheduleAsync(moved.Code!, movePerson, new SlotKey(place, tomorrow.AddDays(1), Eight)));

        // 00:30 on 12 May in Bratislava: 11 May has ended. No flush ran before: the eviction flushes first.
        site.Clock.Set(new DateTimeOffset(2027, 5, 11, 22, 30, 0, TimeSpan.Zero));
        var evicted = await site.SyncAsync(s => s.EvictAsync(100, CancellationToken.None));

        Assert.Equal(1, evicted);
        Assert.Empty(await site.DbAsync(db => db.HotSeats.Where(s => s.Day <= tomorrow).ToListAsync()));
        Assert.Equal([(moved.Code!, tomorrow.AddDays(1))], (await site.HotAsync()).Select(r => (r.Item1, r.Item3)));
        var history = await site.DbAsync(db => db.Reservations.AsNoTracking().ToListAsync());
        Assert.Equal(new[] { cancelled.Code, kept.Code, moved.Code }.Order(), history.Select(r => r.Code).Order());
        Assert.Null(history.Single(r => r.Code == kept.Code).CancelledAt);
        Assert.Equal((tomorrow, Eight), (history.Single(r => r.Code == kept.Code).Day, history.Single(r => r.Code == kept.Code).StartMinute));
        Assert.NotNull(history.Single(r => r.Code == cancelled.Code).CancelledAt);
        Assert.Equal(tomorrow.AddDays(1), history.Single(r => r.Code == moved.Code).Day);
        Assert.Equal(0, await site.DbAsync(db => db.Changes.CountAsync()));
    }

    [Theory]
    [MemberData(nameof(Backend.All), MemberType = typeof(Backend))]
    public async Task Every_job_run_twice_changes_nothing_the_second_time(string backend)
    {
        await using var site = await SlotsSite.StartAsync(backend, new TestClock(Start));
        var place = await site.CreatePlaceAsync(Today, Today.AddDays(33), capacity: 2);
        for (var i = 0; i < 6; i++)
        {
            await site.ReserveAsync(place, Today.AddDays(i % 3), Eight + (30 * i));
            await site.ReserveAsync(place, Today.AddDays(31 + (i % 2)), Eight + (30 * i)); // cold
        }
        site.Clock.Advance(TimeSpan.FromDays(2));

        var first = await RunEveryJobAsync(site);
        var after = await SnapshotAsync(site);
        var second = await RunEveryJobAsync(site);

        Assert.True(first.Sum() > 0);
        Assert.Equal([0, 0, 0, 0, 0], second);
        Assert.Equal(after, await SnapshotAsync(site));
    }

    private static async Task<int[]> RunEveryJobAsync(SlotsSite site)
    {
        var ct = CancellationToken.None;
        var advanced = await site.SyncAsync(s => s.AdvanceAsync(ct));
        return
        [
            advanced.Seats, advanced.Reservations,
            await site.SyncAsync(s => s.FlushAsync(500, ct)),
            await site.SyncAsync(s => s.EvictAsync(500, ct)),
            await site.PurgeIdempotencyAsync(site.Clock.GetUtcNow().AddHours(-24)),
        ];
    }

    /// <summary>Every table the jobs touch, row by row, as text.</summary>
    private static Task<string> SnapshotAsync(SlotsSite site) => site.DbAsync(async db => string.Join('\n',
        string.Join(';', await db.Places.AsNoTracking().OrderBy(p => p.Id).Select(p => p.Id + "@" + p.HotUntil).ToListAsync()),
        string.Join(';', (await db.HotSeats.AsNoTracking().ToListAsync()).Select(s => $"{s.PlaceId}/{s.Day}/{s.StartMinute}/{s.SeatNo}={s.Code}").Order()),
        string.Join(';', (await db.HotReservations.AsNoTracking().ToListAsync()).Select(r => $"{r.Code}@{r.Day}/{r.StartMinute}/{r.SeatNo}").Order()),
        string.Join(';', (await db.Reservations.AsNoTracking().ToListAsync()).Select(r => $"{r.Code}@{r.Day}/{r.StartMinute}/{r.SeatNo}/{r.CancelledAt}/{r.UpdatedAt}").Order()),
        string.Join(';', (await db.ActivePersons.AsNoTracking().ToListAsync()).Select(p => $"{p.PersonHash}={p.Code}/{p.EndsAt}").Order()),
        string.Join(';', (await db.Idempotency.AsNoTracking().ToListAsync()).Select(i => i.Key).Order()),
        await db.Changes.CountAsync()));
}
