using Slots.Window;

namespace Slots.Reservations;

/// <summary>What an owner does with a booking once made: find it, cancel it, move it.</summary>
public sealed partial class ReservationService
{
    public async Task<ReservationDetails?> FindAsync(string code, ContactProof proof, CancellationToken ct)
    {
        var found = await store.FindAsync(code, ct) ?? await cold.FindAsync(code, ct);
        return found is not null && Owns(found, proof) ? found : null;
    }

    /// <summary>Whether the reservation with this code was cancelled, asked by its owner (the proof must match it).</summary>
    public Task<bool> WasCancelledAsync(string code, ContactProof proof, CancellationToken ct) =>
        cold.WasCancelledAsync(new CancelCommand(code, proof, clock.GetUtcNow()), ct);

    public async Task<CancelStatus> CancelAsync(string code, ContactProof proof, CancellationToken ct)
    {
        var command = new CancelCommand(code, proof, clock.GetUtcNow());
        // Not the caller's token: once started, a cancellation completes even if this client has gone.
        var status = await store.CancelAsync(command, CancellationToken.None);
        if (status == CancelStatus.NotFound)
        {
            var coldAnswer = await cold.CancelAsync(command, CancellationToken.None);
            status = coldAnswer.Route == ColdRoute.NowHot ? await store.CancelAsync(command, CancellationToken.None) : coldAnswer.Value;
        }
        if (status == CancelStatus.NotFound && await cold.WasCancelledAsync(command, CancellationToken.None))
        {
            // The same cancel again (DELETE is idempotent): the first took effect, this one changes nothing.
            return CancelStatus.Cancelled;
        }
        if (status == CancelStatus.Cancelled)
        {
            snapshot.Forget(); // a seat came back, at a slot this answer does not name
        }
        return status;
    }

    public async Task<RescheduleAnswer> RescheduleAsync(string code, ContactProof proof, SlotKey target, CancellationToken ct)
    {
        var place = await places.FindAsync(target.PlaceId, ct);
        if (place is not { Active: true })
        {
            return new RescheduleAnswer(RescheduleStatus.UnknownPlace);
        }
        var now = clock.GetUtcNow();
        if (target.Day < LocalClock.Today(place, now))
        {
            return new RescheduleAnswer(RescheduleStatus.OutsideWindow, place, Window: WindowOf(place, now));
        }
        var status = await RescheduleOnPathAsync(new RescheduleCommand(code, proof, target, now));
        if (status == RescheduleStatus.Rescheduled)
        {
            snapshot.Forget(); // a seat moved from a slot this answer does not name
        }
        else if (status == RescheduleStatus.SlotFull)
        {
            snapshot.Full(target);
        }
        return status switch
        {
            // Cancelled between the move and this read: nothing left to show.
            RescheduleStatus.Rescheduled => await FindAsync(code, proof, ct) is { } moved
                ? new RescheduleAnswer(status, place, Reservation: moved)
                : new RescheduleAnswer(RescheduleStatus.NotFound, place),
            RescheduleStatus.SlotFull => new RescheduleAnswer(status, place, Alternatives: await NearestFreeAsync(place, target, now, ct)),
            _ => new RescheduleAnswer(status, place),
        };
    }

    /// <summary>
    /// Hot to hot through the hot store, cold to cold through the cold path. A move across the
    /// horizon (one side hot, the other cold) is refused: no single atomic operation spans both.
    /// </summary>
    private async Task<RescheduleStatus> RescheduleOnPathAsync(RescheduleCommand command)
    {
        if (await store.FindAsync(command.Code, CancellationToken.None) is not null)
        {
            var targetHorizon = await cold.HorizonAsync(command.Target.PlaceId, CancellationToken.None);
            return command.Target.Day < targetHorizon
                ? await store.RescheduleAsync(command, CancellationToken.None)
                : RescheduleStatus.AcrossWindow;
        }
        var coldAnswer = await cold.RescheduleAsync(command, CancellationToken.None);
        return coldAnswer.Route switch
        {
            ColdRoute.NowHot => await store.RescheduleAsync(command, CancellationToken.None),
            ColdRoute.AcrossWindow => RescheduleStatus.AcrossWindow,
            _ => coldAnswer.Value,
        };
    }

    private static bool Owns(ReservationDetails found, ContactProof proof) =>
        (proof.Phone is not null && proof.Phone == found.Phone) ||
        (proof.PersonHash is not null && proof.PersonHash == found.PersonHash);
}
