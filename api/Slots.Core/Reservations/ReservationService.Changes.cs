using Slots.Window;

namespace Slots.Reservations;

/// <summary>What an owner does with a booking once made: find it, cancel it, move it.</summary>
public sealed partial class ReservationService
{
    public async Task<ReservationDetails?> FindAsync(string code, ContactProof proof, CancellationToken ct)
    {
        var found = await store.FindAsync(code, ct) ?? await cold.FindAsync(code, ct);
        if (found is null || !Owns(found, proof))
        {
            return null;
        }
        // A pair is known by its first code; the second's own code answers nothing (it is not the person's to use).
        if ((await services.FindAsync(found.Slot.ServiceId, ct))?.SecondDose is not null && await pairs.FirstOfAsync(code, ct) is not null)
        {
            return null;
        }
        return await WithSecondAsync(found, ct);
    }

    /// <summary>Whether the reservation with this code was cancelled, asked by its owner (the proof must match it).</summary>
    public Task<bool> WasCancelledAsync(string code, ContactProof proof, CancellationToken ct) =>
        cold.WasCancelledAsync(new CancelCommand(code, proof, clock.GetUtcNow()), ct);

    public async Task<CancelStatus> CancelAsync(string code, ContactProof proof, CancellationToken ct)
    {
        var command = new CancelCommand(code, proof, clock.GetUtcNow());
        if (await pairs.FirstOfAsync(code, CancellationToken.None) is not null)
        {
            return CancelStatus.NotFound; // the second dose goes with its pair, by the first code
        }
        // Not the caller's token: once started, a cancellation completes even if this client has gone.
        var status = await CancelOnPathAsync(command);
        if (status == CancelStatus.NotFound && await cold.WasCancelledAsync(command, CancellationToken.None))
        {
            // The same cancel again (DELETE is idempotent): the first took effect; a pair's second dose
            // follows it if a crash came between the two halves.
            await CancelSecondAsync(command);
            return CancelStatus.Cancelled;
        }
        if (status == CancelStatus.Cancelled)
        {
            await CancelSecondAsync(command);
            snapshot.Forget(); // a seat came back, at a slot this answer does not name
        }
        else if (status is CancelStatus.Started or CancelStatus.CheckedIn && await CancelSecondAsync(command) == CancelStatus.Cancelled)
        {
            // The first dose has happened (or is under way): cancelling the pair cancels what is left of it, the second.
            snapshot.Forget();
            return CancelStatus.Cancelled;
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
        if (await pairs.SecondOfAsync(code, ct) is not null)
        {
            return new RescheduleAnswer(RescheduleStatus.PairFirstDoseFixed, place);
        }
        if (await pairs.FirstOfAsync(code, ct) is not null)
        {
            return new RescheduleAnswer(RescheduleStatus.NotFound, place);
        }
        (var status, target) = await RescheduleOnPathAsync(new RescheduleCommand(code, proof, target, now));
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
    /// A move stays within the booking's service: the target is that service's slot at the new time,
    /// taken from the booking the path reads first (the hot store's read was there before services).
    /// </summary>
    private async Task<(RescheduleStatus Status, SlotKey Target)> RescheduleOnPathAsync(RescheduleCommand command)
    {
        if (await store.FindAsync(command.Code, CancellationToken.None) is { } hot)
        {
            command = WithinService(command, hot);
            var targetHorizon = await cold.HorizonAsync(command.Target.PlaceId, CancellationToken.None);
            return (command.Target.Day < targetHorizon
                ? await store.RescheduleAsync(command, CancellationToken.None)
                : RescheduleStatus.AcrossWindow, command.Target);
        }
        command = WithinService(command, await cold.FindAsync(command.Code, CancellationToken.None));
        var coldAnswer = await cold.RescheduleAsync(command, CancellationToken.None);
        if (coldAnswer.Route == ColdRoute.NowHot)
        {
            command = WithinService(command, await store.FindAsync(command.Code, CancellationToken.None));
            return (await store.RescheduleAsync(command, CancellationToken.None), command.Target);
        }
        return (coldAnswer.Route == ColdRoute.AcrossWindow ? RescheduleStatus.AcrossWindow : coldAnswer.Value, command.Target);
    }

    /// <summary>The move's target in the booking's service; unchanged when there is no booking to read it from (the store then answers not-found).</summary>
    internal static RescheduleCommand WithinService(RescheduleCommand command, ReservationDetails? booking) =>
        booking is null ? command : command with { Target = command.Target with { ServiceId = booking.Slot.ServiceId } };

    private static bool Owns(ReservationDetails found, ContactProof proof) =>
        (proof.Phone is not null && proof.Phone == found.Phone) ||
        (proof.PersonHash is not null && proof.PersonHash == found.PersonHash);
}
