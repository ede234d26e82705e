using Microsoft.Extensions.Logging;
using Slots.Places;

namespace Slots.Admission;

/// <summary>
/// Moves each open opening's serving counter: seals the pre-queue when the opening time comes,
/// counts the free seats in the scope, and admits the next positions, at the opening's rate and
/// never beyond what the seats can absorb:
/// admitted-and-unexpired-and-unused ≤ free seats + abandon allowance, and nobody while the scope has no free seat.
/// Every step is a guarded write, so two nodes running this at once never both move a counter.
/// </summary>
public sealed partial class ServingCounter(IAdmissionStore store, PlaceDirectory places, AdmissionMetrics metrics, TimeProvider clock, ILogger<ServingCounter> logger)
{
    /// <summary>One pass over the open openings; returns how many people it admitted.</summary>
    public async Task<long> AdvanceAsync(CancellationToken ct)
    {
        var now = clock.GetUtcNow();
        var records = await store.LoadAsync(now, now, ct);
        long admitted = 0;
        foreach (var opening in records.Openings.Where(o => o.State == OpeningState.Open))
        {
            admitted += await AdvanceAsync(opening, ct);
        }
        metrics.Admitted(admitted);
        return admitted;
    }

    private async Task<long> AdvanceAsync(Opening opening, CancellationToken ct)
    {
        var now = clock.GetUtcNow();
        if (!opening.Sealed && opening.OpensAt <= now)
        {
            await store.SealAsync(opening.Id, now, PreQueueShuffle.NewKey(), ct);
            opening = await store.FindAsync(opening.Id, ct) ?? opening;
        }
        var scope = AdmissionView.PlacesOf(opening.Scope, await places.AllAsync(ct)).Order().ToList();
        var free = await store.FreeSeatsAsync(scope, now, ct);
        var nowMs = now.ToUnixTimeMilliseconds();
        var served = opening.Served;
        var creditAt = nowMs;
        if (opening.Sealed)
        {
            var outstanding = await store.OutstandingAsync(opening.Id, now - opening.AdmissionTime, ct);
            var room = free == 0 ? 0 : Math.Max(0, free + opening.AbandonAllowance - outstanding);
            var admit = Math.Min(opening.Joined - opening.Served, room);
            if (opening.AdmitPerSecond is { } rate)
            {
                // Credit for the time since the last admission, capped so an idle spell does not become a burst.
                var from = Math.Max(opening.CreditAtMs, nowMs - Math.Max(2000, (long)Math.Ceiling(1000 / rate)));
                var byRate = (long)Math.Floor((nowMs - from) * rate / 1000);
                creditAt = admit >= byRate ? from + (long)Math.Ceiling(byRate * 1000 / rate) : nowMs;
                admit = Math.Min(admit, byRate);
            }
            served += Math.Max(0, admit);
        }
        if (served == opening.Served && free == opening.SeatsLeft)
        {
            return 0; // nothing changed: no write (the rate credit of a quiet tick is capped anyway)
        }
        var step = new CounterStep(opening.Id, opening.Version, opening.Served, served, free, creditAt, now);
        if (!await store.StepAsync(step, ct))
        {
            LogLostStep(logger, opening.Id);
            return 0;
        }
        return served - opening.Served;
    }

    [LoggerMessage(EventId = 6002, Level = LogLevel.Information, Message = "Opening {OpeningId}: another node moved the counter first; this step was not written")]
    private static partial void LogLostStep(ILogger logger, long openingId);
}
