using Microsoft.Extensions.Logging;
using Slots.Reservations;
using Slots.WaitingList;

namespace Slots.Retention;

/// <summary>
/// A person's own access to their data and its erasure (GDPR articles 15 and 17), proven by a
/// booking's code with its phone or national id. What the person is: the national id's hash that
/// booking holds, so every booking and waiting-list entry made with the same id is theirs.
/// </summary>
public sealed partial class PersonalDataRequests(
    IPersonalDataStore store,
    ReservationService reservations,
    WaitingListService waitingList,
    IDosePairStore pairs,
    ILogger<PersonalDataRequests> logger)
{
    /// <summary>What is kept about the owner of the booking, or null when the code and proof find nobody.</summary>
    public async Task<StoredPersonalData?> ReadAsync(string code, ContactProof proof, CancellationToken ct) =>
        await OwnerAsync(code, proof, ct) is { } owner ? await AsPairsAsync(await store.ReadAsync(owner, ct), ct) : null;

    /// <summary>
    /// A pair's two appointments shown as the person knows them: both under the pair's code (the first
    /// dose's), as dose 1 and dose 2. The second's own code is the store's key, never the person's to use.
    /// </summary>
    private async Task<StoredPersonalData> AsPairsAsync(StoredPersonalData held, CancellationToken ct)
    {
        var firsts = await pairs.FirstsAsync([.. held.Bookings.Select(b => b.Code)], ct);
        if (firsts.Count == 0)
        {
            return held;
        }
        var pairCodes = firsts.Values.ToHashSet(StringComparer.Ordinal);
        string Shown(string code) => firsts.GetValueOrDefault(code, code);
        return held with
        {
            Bookings = [.. held.Bookings.Select(b => firsts.TryGetValue(b.Code, out var first)
                ? b with { Code = first, Dose = 2 }
                : pairCodes.Contains(b.Code) ? b with { Dose = 1 } : b)],
            Sms = [.. held.Sms.Select(s => s with { Code = Shown(s.Code) })],
            Reminders = [.. held.Reminders.Select(r => r with { Code = Shown(r.Code) })],
        };
    }

    /// <summary>
    /// Cancels the person's bookings still ahead through the normal cancel (the seat comes back, the
    /// cancel SMS is queued), leaves their waiting lists (a held seat goes on), then erases their
    /// data everywhere. Null when the code and proof find nobody, as after an erasure.
    /// </summary>
    public async Task<ErasedRows?> EraseAsync(string code, ContactProof proof, CancellationToken ct)
    {
        if (await OwnerAsync(code, proof, ct) is not { } owner)
        {
            return null;
        }
        var held = await store.ReadAsync(owner, ct);
        var cancelled = 0;
        foreach (var booking in held.Bookings.Where(b => !b.Cancelled))
        {
            // A booking whose slot has begun, or that was checked in, keeps its seat: the visit is past.
            if (await reservations.CancelAsync(booking.Code, new ContactProof(null, owner), ct) == CancelStatus.Cancelled)
            {
                cancelled++;
            }
        }
        foreach (var entry in held.WaitingList.Where(e => e.State is EntryState.Waiting or EntryState.Offered))
        {
            await waitingList.LeaveAsync(entry.Token, ct);
        }
        var erased = await store.EraseAsync(owner, ct);
        Erased(logger, cancelled, erased.Reservations, erased.Outbox, erased.WaitingList);
        return erased;
    }

    private async Task<string?> OwnerAsync(string code, ContactProof proof, CancellationToken ct) =>
        await store.OwnerAsync(code, proof, ct)
        ?? (proof.UnderPreviousKey is { } previous ? await store.OwnerAsync(code, previous, ct) : null);

    [LoggerMessage(EventId = 9002, Level = LogLevel.Information,
        Message = "A person erased their data: {Cancelled} bookings cancelled first, {Reservations} booking rows, {Outbox} SMS rows, {WaitingList} waiting-list entries")]
    private static partial void Erased(ILogger logger, int cancelled, int reservations, int outbox, int waitingList);
}
