using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.Options;
using Slots.Catalogue;
using Slots.Eligibility;
using Slots.Places;
using Slots.Window;

namespace Slots.Reservations;

/// <summary>
/// The reservation use case in front of the store: the checks that need no database, the
/// in-flight coalescing of repeats with one idempotency key, the alternatives offered when
/// a slot is full, and the choice of path: days before the place's horizon go to the hot store,
/// days from it on to the cold path (which hands a call back when the day has meanwhile become hot).
/// </summary>
public sealed partial class ReservationService(
    IReservationStore store,
    IColdReservationStore cold,
    IDosePairStore pairs,
    AvailabilitySnapshot snapshot,
    PlaceDirectory places,
    ServiceDirectory services,
    TimeProvider clock,
    IOptions<WindowOptions> window,
    IOptions<ReservationOptions> options)
{
    private readonly ConcurrentDictionary<string, InFlight> _inFlight = new(StringComparer.Ordinal);

    private sealed record InFlight(string Fingerprint, Task<BookingAnswer> Answer);

    public async Task<BookingAnswer> ReserveAsync(BookingRequest request, string idempotencyKey, CancellationToken ct)
    {
        var place = await places.FindAsync(request.Slot.PlaceId, ct);
        if (place is not { Active: true })
        {
            return new BookingAnswer(ReservationStatus.UnknownPlace);
        }
        // The service is part of the slot's key, so it is settled before the fingerprint: an unnamed
        // booking at a one-service place hashes as it did before services (the default service's key reads as before).
        var choice = await ChooseServiceAsync(place.Id, request.Service, ct);
        if (choice.Refusal is { } refused)
        {
            return new BookingAnswer(refused, Place: place, Services: choice.Codes);
        }
        request = request with { Slot = request.Slot with { ServiceId = choice.Service!.Id } };
        var fingerprint = Fingerprint(request);
        var mine = new TaskCompletionSource<BookingAnswer>(TaskCreationOptions.RunContinuationsAsynchronously);
        var entry = new InFlight(fingerprint, mine.Task);
        var running = _inFlight.GetOrAdd(idempotencyKey, entry);
        if (!ReferenceEquals(running, entry))
        {
            return await AwaitRunningAsync(running, fingerprint, ct);
        }
        try
        {
            // Not the caller's token: once started, a booking completes even if this client has gone.
            var answer = await DecideAsync(place, choice.Service!, request, idempotencyKey, fingerprint, CancellationToken.None)
                with
            { Service = choice.Service };
            mine.SetResult(answer);
            return answer;
        }
        catch (Exception ex)
        {
            mine.SetException(ex);
            throw;
        }
        finally
        {
            _inFlight.TryRemove(new KeyValuePair<string, InFlight>(idempotencyKey, entry));
        }
    }

    private async Task<BookingAnswer> AwaitRunningAsync(InFlight running, string fingerprint, CancellationToken ct)
    {
        if (running.Fingerprint != fingerprint)
        {
            return new BookingAnswer(ReservationStatus.KeyReused);
        }
        try
        {
            var answer = await running.Answer.WaitAsync(options.Value.InFlightWait, clock, ct);
            return answer with { Replayed = true };
        }
        catch (TimeoutException)
        {
            return new BookingAnswer(ReservationStatus.InProgress);
        }
    }

    private async Task<BookingAnswer> DecideAsync(PlaceInfo place, ServiceInfo service, BookingRequest request, string key, string fingerprint,
        CancellationToken ct)
    {
        var now = clock.GetUtcNow();
        var today = LocalClock.Today(place, now);
        if (request.Slot.Day < today)
        {
            return new BookingAnswer(ReservationStatus.OutsideWindow, Window: WindowOf(place, now), Place: place);
        }
        var (second, refusal) = SecondRangeFor(service, request);
        if (refusal is { } before)
        {
            return new BookingAnswer(before, Place: place);
        }
        if (!store.DecidesEligibility && EligibilityDecision.For(service.Eligibility, request.BornOn, null, now) is { Eligible: false } early)
        {
            return new BookingAnswer(ReservationStatus.NotEligible, Place: place, Refusal: early);
        }
        var command = new ReserveCommand(request.Slot, request.PersonHash, request.Phone, request.Name, request.Language,
            ConfirmationCode.New(), key, fingerprint, now, request.BornOn, request.InvitationHash, request.BookedBy, request.Sms,
            second, second is null ? null : ConfirmationCode.New());
        var result = await ReserveOnPathAsync(place, command, ct);
        if (result is not { } outcome)
        {
            return new BookingAnswer(ReservationStatus.KeyReused, Place: place);
        }
        if (outcome.Status == ReservationStatus.NotEligible)
        {
            // The database refused, by the rule it holds; the cached steps only add when the person's turn comes.
            var reason = (NotEligibleReason)outcome.Detail;
            var opensOn = service.Eligibility.Rule == EligibilityRule.Age && request.BornOn is { } born
                ? AgeSteps.OpensOn(service.Eligibility.Steps, born, now)
                : null;
            return new BookingAnswer(ReservationStatus.NotEligible, Place: place,
                Refusal: new EligibilityDecision(Enum.IsDefined(reason) ? reason : NotEligibleReason.TooYoung, false, opensOn));
        }
        if (outcome.Status == ReservationStatus.Reserved && !outcome.Replayed)
        {
            snapshot.Taken(request.Slot);
        }
        else if (outcome.Status == ReservationStatus.SlotFull)
        {
            snapshot.Full(request.Slot);
        }
        // The database refused the seat (a closed place's slots have none, in the same operation as
        // the seat); the directory, already read, says why. It is not asked before the seat: another
        // instance's copy may still say closed after a reopen, and the seat must win then.
        if (place.Closed && outcome.Status is ReservationStatus.SlotFull or ReservationStatus.UnknownSlot)
        {
            return new BookingAnswer(ReservationStatus.PlaceClosed, Place: place);
        }
        var alternatives = outcome.Status == ReservationStatus.SlotFull
            ? await NearestFreeAsync(place, request.Slot, now, ct)
            : null;
        var minutes = outcome.Status != ReservationStatus.Reserved ? 0
            : outcome.Minutes > 0 ? outcome.Minutes
            : await MinutesAsync(place, request.Slot, outcome.Code!, ct);
        var secondDose = outcome.Status != ReservationStatus.Reserved || second is null ? null
            : outcome.Second is { Minutes: > 0 } seated ? seated
            : await SecondOfAsync(outcome.Code!, ct);
        return new BookingAnswer(outcome.Status, outcome.Code, outcome.Replayed, alternatives, Place: place, Minutes: minutes, Second: secondDose);
    }

    private async Task<ReserveResult?> ReserveOnPathAsync(PlaceInfo place, ReserveCommand command, CancellationToken ct)
    {
        if (command.Slot.Day < place.HotUntil)
        {
            return await store.ReserveAsync(command, ct);
        }
        var coldAnswer = await cold.ReserveAsync(command, ct);
        return coldAnswer.Route == ColdRoute.NowHot ? await store.ReserveAsync(command, ct) : coldAnswer.Value;
    }

    /// <summary>
    /// The booked slot's length when the store's answer did not carry it (a replay on SQLite, the
    /// cold path, a replay on SQL Server of a booking gone since): one read by code. A replay of a booking cancelled since finds no
    /// reservation and reads the slot instead.
    /// </summary>
    private async Task<int> MinutesAsync(PlaceInfo place, SlotKey slot, string code, CancellationToken ct)
    {
        if ((await store.FindAsync(code, ct) ?? await cold.FindAsync(code, ct)) is { } held)
        {
            return held.Minutes;
        }
        var slots = await AvailabilityAsync(place, slot.ServiceId, slot.Day, slot.Day, ct);
        return slots.FirstOrDefault(s => s.Slot == slot).Minutes;
    }

    /// <summary>Which of the place's services a request means (<see cref="ServiceChoice"/>): read from the cached directory.</summary>
    public async ValueTask<ServiceChoice> ChooseServiceAsync(int placeId, string? code, CancellationToken ct) =>
        ServiceChoice.Of(await services.OfferedAtAsync(placeId, ct), code);

    /// <summary>
    /// What makes two requests "the same" for an idempotency key. Hashed: the key table holds no personal data.
    /// Internal for the test that pins it: a deploy must not change it for a request already sent.
    /// </summary>
    internal static string Fingerprint(BookingRequest r)
    {
        // A booking made by staff differs from the person's own with the same fields; a person's own hashes as it always did.
        var text = r.BookedBy is null
            ? $"{r.Slot}|{r.PersonHash}|{r.Phone}|{r.Name}|{r.Language}"
            : $"{r.Slot}|{r.PersonHash}|{r.Phone}|{r.Name}|{r.Language}|{r.BookedBy}|{r.Sms}";
        if (r.SecondChoice is { } chosen)
        {
            // A chosen second dose is part of the request; an unchosen one hashes as every booking did.
            text += $"|{chosen.Day:yyyy-MM-dd}@{chosen.StartMinute}";
        }
        return Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text)))[..32];
    }
}
