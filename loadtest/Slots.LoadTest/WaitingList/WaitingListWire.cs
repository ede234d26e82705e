using System.Text.Json;
using System.Text.Json.Serialization;
using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.WaitingList;

// What the waiting list's run sends and reads (api/Slots.Api/WaitingList/WaitingListDtos.cs).

public sealed record JoinBody(int PlaceId, string From, string To, string Name, string Phone, string NationalId, string Language);

public sealed record OfferBody(string Day, string Time, int Minutes, DateTimeOffset ExpiresAt);

public sealed record EntryBody(string? Token, string State, int Position, OfferBody? Offer, string? BookedCode);

/// <summary>
/// The waiting list at a sold-out place: seats cancelled one by one, each offered to the next in line, claimed by most
/// and declined by the rest (who leave the line), and what the place holds at the end.
/// </summary>
public sealed record WaitingListReport(string Target, int Seats, int Line, double Seconds, int Cancelled, int Offered, int Claimed, int Declined,
    LatencyStats CancelToOffer, LatencyStats Claims, IReadOnlyDictionary<string, long> Refused, int BookedAtEnd, int OffersOpenAtEnd,
    int HeldTwice, IReadOnlyList<ProcessStats> Processes, IReadOnlyList<TimedClaim> SlowestClaims)
{
    /// <summary>
    /// Every claim booked its seat and nobody else's; every cancelled seat ended booked through the line or held for one
    /// person in it; no seat held for two.
    /// </summary>
    public bool Passed => Refused.Count == 0 && BookedAtEnd == Claimed && Claimed + OffersOpenAtEnd == Cancelled && HeldTwice == 0;
}

/// <summary>One claim: when it was sent, in seconds from the first cancel, and how long its answer took.</summary>
public sealed record TimedClaim(double AtSeconds, double Ms);

[JsonSourceGenerationOptions(JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(JoinBody))]
[JsonSerializable(typeof(EntryBody))]
internal sealed partial class WaitingListJson : JsonSerializerContext;
