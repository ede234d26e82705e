using Slots.Reservations;

namespace Slots.Hosting.Health;

/// <summary>
/// The backend's reservation store, telling the <see cref="DatabaseWitness"/> of every call the database answered; what the
/// interface gives by default (eligibility in the seat's operation, the streamed reads) is the backend's own.
/// </summary>
internal sealed class WitnessedReservationStore(IReservationStore inner, DatabaseWitness witness) : IReservationStore
{
    public ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct) => Witnessed(inner.ReserveAsync(command, ct));

    public bool DecidesEligibility => inner.DecidesEligibility;

    public IAsyncEnumerable<SlotAvailability>? EveryPlace(DateOnly from, DateOnly to) => inner.EveryPlace(from, to);

    public IAsyncEnumerable<ChangedSlot>? ChangedDays(DateOnly from, DateOnly to, IReadOnlyList<DayDigest> known) => inner.ChangedDays(from, to, known);

    public ValueTask<CancelStatus> CancelAsync(CancelCommand command, CancellationToken ct) => Witnessed(inner.CancelAsync(command, ct));

    public ValueTask<RescheduleStatus> RescheduleAsync(RescheduleCommand command, CancellationToken ct) => Witnessed(inner.RescheduleAsync(command, ct));

    public async Task<ReservationDetails?> FindAsync(string code, CancellationToken ct)
    {
        var found = await inner.FindAsync(code, ct);
        witness.Answered();
        return found;
    }

    public async Task<IReadOnlyList<SlotAvailability>> GetAvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct)
    {
        var slots = await inner.GetAvailabilityAsync(placeId, from, to, ct);
        witness.Answered();
        return slots;
    }

    public async Task<bool> PingAsync(CancellationToken ct)
    {
        var answered = await inner.PingAsync(ct);
        if (answered)
        {
            witness.Answered();
        }
        return answered;
    }

    // The booking path's ValueTask: no state machine when the batch answered synchronously.
    private ValueTask<T> Witnessed<T>(ValueTask<T> pending)
    {
        if (pending.IsCompletedSuccessfully)
        {
            witness.Answered();
            return pending;
        }
        return Awaited(pending);
    }

    private async ValueTask<T> Awaited<T>(ValueTask<T> pending)
    {
        var result = await pending;
        witness.Answered();
        return result;
    }
}
