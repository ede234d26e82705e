using Slots.Catalogue;

namespace Slots.Reservations;

/// <summary>
/// Two-dose bookings (issue 41 item 3): the second dose's range comes from the service's interval
/// before the store is asked; the store seats both doses in one transaction or neither. The person
/// knows the pair by the first code: finding it shows both, cancelling it cancels both, and a move
/// names the second dose to move it within its interval.
/// </summary>
public sealed partial class ReservationService
{
    /// <summary>
    /// The second dose's range for a booking of <paramref name="service"/>, or the refusal decided
    /// before the store: a chosen second dose at a service of one appointment, or outside the interval.
    /// </summary>
    internal static (SecondDoseRange? Range, ReservationStatus? Refusal) SecondRangeFor(ServiceInfo service, BookingRequest request)
    {
        if (service.SecondDose is not { } interval)
        {
            return (null, request.SecondChoice is null ? null : ReservationStatus.NoSecondDose);
        }
        var range = SecondDoseWindow.For(request.Slot.Day, request.Slot.StartMinute, interval.MinDays, interval.MaxDays, request.SecondChoice);
        return range is null ? (null, ReservationStatus.SecondDoseOutsideInterval) : (range, null);
    }

    /// <summary>The pair's second dose as it stands now (a replay, or a store whose answer did not carry it); null for a single booking.</summary>
    private async Task<SecondDose?> SecondOfAsync(string firstCode, CancellationToken ct)
    {
        if (await pairs.SecondOfAsync(firstCode, ct) is not { } second)
        {
            return null;
        }
        var held = await store.FindAsync(second, ct) ?? await cold.FindAsync(second, ct);
        return held is null ? null : new SecondDose(second, held.Slot.Day, held.Slot.StartMinute, held.Minutes);
    }

    /// <summary>The second dose of the pair whose first code is <paramref name="firstCode"/> (a claim from the waiting list shows it); null for a single booking.</summary>
    public Task<SecondDose?> SecondDoseOfAsync(string firstCode, CancellationToken ct) => SecondOfAsync(firstCode, ct);

    /// <summary>The found reservation with its second dose where it is the first of a pair.</summary>
    private async Task<ReservationDetails> WithSecondAsync(ReservationDetails found, CancellationToken ct) =>
        (await services.FindAsync(found.Slot.ServiceId, ct))?.SecondDose is null
            ? found
            : found with { Second = await SecondOfAsync(found.Code, ct) };

    /// <summary>
    /// After the first dose's cancel took effect (now or by an earlier try), or when the first has
    /// started or was checked in: the second's cancel, on whichever path holds it. Idempotent, so a
    /// cancel retried after a crash between the two halves finishes the pair. Null for a single booking.
    /// </summary>
    private async Task<CancelStatus?> CancelSecondAsync(CancelCommand first)
    {
        if (await pairs.SecondOfAsync(first.Code, CancellationToken.None) is not { } second)
        {
            return null;
        }
        var command = first with { Code = second };
        var status = await CancelOnPathAsync(command);
        return status == CancelStatus.NotFound && await cold.WasCancelledAsync(command, CancellationToken.None) ? CancelStatus.Cancelled : status;
    }

    /// <summary>The cancel on the hot path, else on the disk days' (and on the hot path again when the day turned hot meanwhile).</summary>
    private async Task<CancelStatus> CancelOnPathAsync(CancelCommand command)
    {
        var status = await store.CancelAsync(command, CancellationToken.None);
        if (status != CancelStatus.NotFound)
        {
            return status;
        }
        var coldAnswer = await cold.CancelAsync(command, CancellationToken.None);
        return coldAnswer.Route == ColdRoute.NowHot ? await store.CancelAsync(command, CancellationToken.None) : coldAnswer.Value;
    }

    /// <summary>
    /// A site cancelled <paramref name="cancelledBySite"/> (a block of a day): the other half of each
    /// pair among them is cancelled too, so no person is left with half a pair (the block's SMS names
    /// one appointment, the cancel's SMS the other). A half that has started or was checked in stays.
    /// Idempotent: a half already gone is passed over. Answers how many halves it cancelled.
    /// </summary>
    public async Task<int> CancelOtherHalvesAsync(IReadOnlyCollection<string> cancelledBySite, CancellationToken ct)
    {
        var others = await pairs.OtherHalvesAsync(cancelledBySite, ct);
        var cancelled = 0;
        foreach (var other in others.Values.Where(o => !cancelledBySite.Contains(o)).Distinct(StringComparer.Ordinal))
        {
            if ((await store.FindAsync(other, ct) ?? await cold.FindAsync(other, ct)) is not { } half)
            {
                continue;
            }
            var status = await CancelOnPathAsync(new CancelCommand(other, new ContactProof(half.Phone, null), clock.GetUtcNow()));
            cancelled += status == CancelStatus.Cancelled ? 1 : 0;
        }
        if (cancelled > 0)
        {
            snapshot.Forget();
        }
        return cancelled;
    }

    /// <summary>
    /// Moves the second dose of the pair <paramref name="code"/> names: same place, a day within the
    /// service's interval after the first dose (any time of that day).
    /// </summary>
    public async Task<RescheduleAnswer> MoveSecondDoseAsync(string code, ContactProof proof, SlotKey target, CancellationToken ct)
    {
        var first = await FindAsync(code, proof, ct);
        if (first is null)
        {
            return new RescheduleAnswer(RescheduleStatus.NotFound);
        }
        var place = await places.FindAsync(first.Slot.PlaceId, ct);
        var service = await services.FindAsync(first.Slot.ServiceId, ct);
        if (place is null || first.Second is not { } second || service?.SecondDose is not { } interval)
        {
            return new RescheduleAnswer(RescheduleStatus.NoSecondDose, place);
        }
        if (target.PlaceId != first.Slot.PlaceId || !SecondDoseWindow.InInterval(first.Slot.Day, interval.MinDays, interval.MaxDays, target.Day))
        {
            return new RescheduleAnswer(RescheduleStatus.OutsideInterval, place);
        }
        var now = clock.GetUtcNow();
        (var status, target) = await RescheduleOnPathAsync(new RescheduleCommand(second.Code, proof, target, now, Holder: first.Code));
        if (status == RescheduleStatus.Rescheduled)
        {
            snapshot.Forget();
            return await FindAsync(code, proof, ct) is { } moved
                ? new RescheduleAnswer(status, place, Reservation: moved)
                : new RescheduleAnswer(RescheduleStatus.NotFound, place);
        }
        if (status == RescheduleStatus.SlotFull)
        {
            snapshot.Full(target);
            return new RescheduleAnswer(status, place, Alternatives: await NearestFreeAsync(place, target, now, ct));
        }
        return new RescheduleAnswer(status, place);
    }
}
