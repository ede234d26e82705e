using System.Collections.Concurrent;
using System.Diagnostics;
using Microsoft.EntityFrameworkCore;
using Slots.Reservations;
using Slots.Scheduler.Tests.Infrastructure;

namespace Slots.Scheduler.Tests;

/// <summary>
/// Writers reserve, cancel and reschedule for a few seconds while flushes keep draining the
/// change records; afterwards one final flush must leave the disk equal to the hot tables.
/// </summary>
public sealed class FlushUnderLoadTests
{
    private static readonly DateTimeOffset Start = new(2027, 5, 10, 4, 0, 0, TimeSpan.Zero); // 06:00 in Bratislava
    private static readonly DateOnly Today = new(2027, 5, 10);
    private static readonly TimeSpan LoadFor = TimeSpan.FromSeconds(4);

    // On a starved machine 4 s may hold too few flushes to interleave with the writers: the load goes
    // on until it has (at most this long), instead of failing on how busy the machine was.
    private static readonly TimeSpan LoadAtMost = TimeSpan.FromSeconds(60);

    [Theory]
    [MemberData(nameof(Backend.All), MemberType = typeof(Backend))]
    public async Task Changes_made_while_flushes_run_reach_disk_exactly_once_and_disk_equals_hot_seat_for_seat(string backend)
    {
        await using var site = await SlotsSite.StartAsync(backend, new TestClock(Start));
        var place = await site.CreatePlaceAsync(Today, Today.AddDays(2), capacity: 4);
        var slots = Enumerable.Range(0, 3).SelectMany(d => Enumerable.Range(0, 8).Select(i => (Day: Today.AddDays(d), Minute: (8 * 60) + (30 * i)))).ToArray();
        var reserved = new ConcurrentDictionary<string, int>();    // code -> person
        var cancelled = new ConcurrentDictionary<string, bool>();
        var flushes = 0;
        var flushedRows = 0;
        using var stop = new CancellationTokenSource();

        var flusher = Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                // Small batches, so a flush is usually half-way through the pending changes when more commit.
                Interlocked.Add(ref flushedRows, await site.SyncAsync(s => s.FlushAsync(7, CancellationToken.None)));
                Interlocked.Increment(ref flushes);
                await Task.Delay(20);
            }
        });
        var writers = Enumerable.Range(0, 6).Select(w => Task.Run(async () =>
        {
            var random = new Random(w);
            var watch = Stopwatch.StartNew();
            while (watch.Elapsed < LoadFor || (watch.Elapsed < LoadAtMost && (Volatile.Read(ref flushes) <= 3 || reserved.Count <= 20)))
            {
                var person = site.NextPerson();
                var (day, minute) = slots[random.Next(slots.Length)];
                var answer = await site.ReserveAsync(place, day, minute, person);
                if (answer.Status != ReservationStatus.Reserved)
                {
                    continue;
                }
                Assert.True(reserved.TryAdd(answer.Code!, person));
                switch (random.Next(3))
                {
                    case 0:
                        Assert.Equal(CancelStatus.Cancelled, await site.CancelAsync(answer.Code!, person));
                        cancelled[answer.Code!] = true;
                        break;
                    case 1:
                        var (toDay, toMinute) = slots[random.Next(slots.Length)];
                        var status = await site.RescheduleAsync(answer.Code!, person, new SlotKey(place, toDay, toMinute));
                        Assert.Contains(status, new[] { RescheduleStatus.Rescheduled, RescheduleStatus.SlotFull });
                        break;
                }
            }
        })).ToList();
        await Task.WhenAll(writers);
        await stop.CancelAsync();
        await flusher;
        Interlocked.Add(ref flushedRows, await site.SyncAsync(s => s.FlushAsync(7, CancellationToken.None)));

        Assert.True(flushes > 3, $"only {flushes} flushes ran during the load");
        Assert.True(reserved.Count > 20, $"only {reserved.Count} reservations were made");
        Assert.Equal(0, await site.DbAsync(db => db.Changes.CountAsync()));
        // Seat for seat: every active hot reservation is on disk at the same seat, and nothing else is active there.
        Assert.Equal(await site.HotAsync(), await site.DiskActiveAsync());
        var disk = await site.DbAsync(db => db.Reservations.AsNoTracking().ToListAsync());
        // Exactly once: one disk row per code ever reserved, cancelled exactly when it was cancelled.
        Assert.Equal(reserved.Keys.Order(), disk.Select(r => r.Code).Order());
        Assert.All(disk, r => Assert.Equal(cancelled.ContainsKey(r.Code), r.CancelledAt is not null));
        Assert.True(flushedRows >= reserved.Count);
    }
}
