using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using Slots.Places;
using Slots.Window;

namespace Slots.Reminders;

/// <summary>
/// Which places' next day is due for its reminders now, and queuing them within the run's allowance.
/// A place is due from <see cref="ReminderOptions.LocalTime"/> on its own clock until its midnight,
/// so a place in another time zone is reminded at its own evening, and a run missed (a restart, a
/// scheduler failover) is made up by the next one. A place whose day has nothing left to remind is
/// passed over for <see cref="ReminderOptions.RecheckAfter"/> and then asked again for bookings made
/// since: without that, every run of an evening would ask each place already done once more, a read
/// per place per run (about 0.8 ms at 1,000 places × 5.1 M seats on PostgreSQL, docs/benchmarks.md).
/// What is passed over is this process's memory only: a restart or another scheduler node asks
/// every due place once.
/// </summary>
public sealed class DayBeforeReminders(IReminderStore store, PlaceDirectory places, IOptions<ReminderOptions> options, ReminderMetrics metrics)
{
    private readonly ConcurrentDictionary<(int Place, DateOnly Day), DateTimeOffset> _doneAt = new();

    /// <summary>The day whose bookings the place reminds at <paramref name="now"/>, or null before its local time.</summary>
    public DateOnly? DueDay(PlaceInfo place, DateTimeOffset now)
    {
        var local = TimeZoneInfo.ConvertTime(now, place.TimeZone);
        return TimeOnly.FromDateTime(local.DateTime) >= options.Value.LocalTime
            ? LocalClock.Today(place, now).AddDays(1)
            : null;
    }

    /// <summary>Queues the due reminders of every active place, at most <paramref name="allowance"/> of them. Returns how many.</summary>
    public async Task<int> QueueDueAsync(DateTimeOffset now, int allowance, CancellationToken ct)
    {
        ForgetDaysGone(now);
        var queued = 0;
        foreach (var place in (await places.AllAsync(ct)).Where(p => p.Active).OrderBy(p => p.Id))
        {
            if (DueDay(place, now) is not { } day || PassedOver(place.Id, day, now))
            {
                continue;
            }
            while (true)
            {
                var batch = Math.Min(options.Value.Batch, allowance - queued);
                if (batch <= 0)
                {
                    return queued;
                }
                var taken = await store.QueueAsync(place.Id, day, now, batch, ct);
                metrics.Queued(place.Id, taken);
                queued += taken;
                if (taken < batch)
                {
                    // Fewer than asked for: nothing of this day is left to remind now.
                    _doneAt[(place.Id, day)] = now;
                    break;
                }
            }
        }
        return queued;
    }

    private bool PassedOver(int place, DateOnly day, DateTimeOffset now) =>
        _doneAt.TryGetValue((place, day), out var done) && now >= done && now - done < options.Value.RecheckAfter;

    /// <summary>Days two days back in UTC are before yesterday everywhere (offsets reach ±14 h): their marks go.</summary>
    private void ForgetDaysGone(DateTimeOffset now)
    {
        var gone = DateOnly.FromDateTime(now.UtcDateTime).AddDays(-1);
        foreach (var key in _doneAt.Keys.Where(k => k.Day < gone))
        {
            _doneAt.TryRemove(key, out _);
        }
    }
}
