using System.Security.Cryptography;
using Microsoft.Extensions.Options;
using Slots.Catalogue;
using Slots.Reservations;

namespace Slots.WaitingList;

/// <summary>
/// A place's waiting list as a person uses it: join when nothing is free on the days wanted, see
/// the place in line, claim a seat held for you, leave. The entry's token is its only key: random,
/// 128 bits, sent in a header (and in the SMS link's fragment), never in a URL's path. At a
/// two-dose service a claim books both doses, as a booking there does.
/// </summary>
public sealed class WaitingListService(IWaitingListStore store, ServiceDirectory services, ReservationService reservations, TimeProvider clock,
    IOptions<WaitingListOptions> options, WaitingListMetrics metrics)
{
    public WaitingListOptions Options => options.Value;

    /// <summary>Joins the line of one service at the place (<paramref name="serviceId"/>, resolved by the caller from the place's offer).</summary>
    public async Task<JoinAnswer> JoinAsync(int placeId, int serviceId, DateOnly from, DateOnly to, string personHash, string phone, string name,
        string language, CancellationToken ct)
    {
        var answer = await store.JoinAsync(new JoinCommand(placeId, from, to, personHash, phone, name, language, NewToken(), Now(), serviceId), ct);
        if (answer.Status == JoinStatus.Joined)
        {
            metrics.Joined(placeId);
        }
        return answer;
    }

    public Task<EntryView?> FindAsync(string token, CancellationToken ct) => store.FindAsync(token, Now(), ct);

    public Task<bool> LeaveAsync(string token, CancellationToken ct) => store.LeaveAsync(token, Now(), ct);

    public async Task<ClaimAnswer> ClaimAsync(string token, CancellationToken ct)
    {
        var now = Now();
        var offer = (await store.FindAsync(token, now, ct))?.Offer;
        var command = new ClaimCommand(token, ConfirmationCode.New(), now, offer?.Slot);
        if (offer is not null && (await services.FindAsync(offer.Slot.ServiceId, ct))?.SecondDose is { } interval)
        {
            // The second dose as a booking of the offered slot takes it: the earliest free seat at the same time within the interval.
            command = command with
            {
                Second = SecondDoseWindow.For(offer.Slot.Day, offer.Slot.StartMinute, interval.MinDays, interval.MaxDays),
                SecondCode = ConfirmationCode.New(),
            };
        }
        var answer = await store.ClaimAsync(command, ct);
        if (answer.Status != ClaimStatus.Claimed)
        {
            return answer;
        }
        if (offer is not null)
        {
            metrics.Claimed(answer.Slot!.Value.PlaceId, now - offer.OfferedAt);
        }
        // The pair's second dose, for a claim answered again (a fresh one carries it already); looked up only at a
        // service that has one (the directory is cached), so a one-dose claim costs no query more.
        return answer.Second is null && answer.Slot is { } slot && (await services.FindAsync(slot.ServiceId, ct))?.SecondDose is not null
            && await reservations.SecondDoseOfAsync(answer.Code!, ct) is { } second
            ? answer with { Second = second }
            : answer;
    }

    /// <summary>A token: 128 random bits as 32 hexadecimal digits.</summary>
    public static string NewToken() => Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(16));

    /// <summary>Whether a value is shaped like a token (checked before any lookup).</summary>
    public static bool IsToken(string? value) => value is { Length: 32 } && value.All(char.IsAsciiHexDigitLower);

    private DateTimeOffset Now() => DateTimeOffset.FromUnixTimeSeconds(clock.GetUtcNow().ToUnixTimeSeconds());
}
