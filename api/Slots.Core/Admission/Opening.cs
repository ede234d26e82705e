namespace Slots.Admission;

/// <summary>
/// What an opening covers: every place of a region, or a set of places. Stored as it was
/// announced; the places a region means are resolved when they are needed, so a place added to
/// the region later is inside the opening too.
/// </summary>
public sealed record OpeningScope(string? Region, IReadOnlyList<int> PlaceIds)
{
    public static OpeningScope OfRegion(string region) => new(region, []);

    public static OpeningScope OfPlaces(IEnumerable<int> placeIds) => new(null, placeIds.Distinct().Order().ToArray());

    /// <summary>The scope as one line ("region:X" or "places:1,2,3"), how the stores keep it.</summary>
    public string Text => Region is not null ? "region:" + Region : "places:" + string.Join(',', PlaceIds);

    public static OpeningScope Parse(string text) =>
        text.StartsWith("region:", StringComparison.Ordinal)
            ? OfRegion(text["region:".Length..])
            : OfPlaces(text["places:".Length..].Split(',', StringSplitOptions.RemoveEmptyEntries).Select(int.Parse));
}

public enum OpeningState
{
    Open = 1,
    Closed = 2,
}

/// <summary>What staff announce: a scope, a time, and how admission goes.</summary>
/// <param name="AdmitPerSecond">The most people admitted per second; null admits as fast as the seats allow.</param>
/// <param name="AdmissionTime">How long an admitted person has to book before the admission lapses and frees its share.</param>
/// <param name="AbandonAllowance">Admissions allowed beyond the free seats, for people who are admitted and never book.</param>
public sealed record NewOpening(OpeningScope Scope, DateTimeOffset OpensAt, double? AdmitPerSecond, TimeSpan AdmissionTime, int AbandonAllowance);

/// <summary>
/// An opening and its counters as stored. Tickets are numbered in join order. Tickets up to
/// <see cref="PreQueue"/> joined before the opening: their positions are a random permutation
/// of 1..PreQueue made with <see cref="ShuffleKey"/> (<see cref="PreQueueShuffle"/>); later tickets
/// are their own positions. Positions up to <see cref="Served"/> have been admitted.
/// </summary>
public sealed record Opening(
    long Id,
    OpeningScope Scope,
    DateTimeOffset OpensAt,
    double? AdmitPerSecond,
    TimeSpan AdmissionTime,
    int AbandonAllowance,
    OpeningState State,
    DateTimeOffset CreatedAt,
    DateTimeOffset? ClosedAt,
    long Joined,
    long? PreQueue,
    byte[]? ShuffleKey,
    long Served,
    long SeatsLeft,
    DateTimeOffset? AdvancedAt,
    long CreditAtMs,
    long Version)
{
    /// <summary>True once the pre-queue is fixed and shuffled: every ticket has its position.</summary>
    public bool Sealed => PreQueue is not null && ShuffleKey is not null;

    /// <summary>The position of a ticket, or null while the pre-queue is not yet shuffled.</summary>
    public long? PositionOf(long ticket)
    {
        if (ticket > (PreQueue ?? long.MaxValue))
        {
            return ticket;
        }
        return Sealed ? PreQueueShuffle.Position(ShuffleKey!, PreQueue!.Value, ticket) : null;
    }
}

/// <summary>One step of the serving counter: positions [First, Last] admitted at <see cref="At"/>.</summary>
public sealed record AdmissionWave(long OpeningId, long First, long Last, DateTimeOffset At);
