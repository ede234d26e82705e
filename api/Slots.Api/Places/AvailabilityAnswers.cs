using System.Collections.Concurrent;
using Slots.Reservations;

namespace Slots.Api.Places;

/// <summary>
/// Availability answers as bytes, kept while the snapshot state they were built from is unchanged
/// (<see cref="SnapshotStamp"/>) and no slot in them has started: a crowd reading the same week
/// between two changes of its seats costs one serialization and one hash, not one each.
/// </summary>
internal sealed class AvailabilityAnswers
{
    // Weeks asked of popular places; past this many the whole set is dropped and rebuilt by use.
    private const int MaxAnswers = 4096;

    private readonly ConcurrentDictionary<(int Place, int Service, DateOnly First, DateOnly Last), Kept> _answers = new();

    public TaggedJson? Find(int placeId, int serviceId, DateOnly first, DateOnly last, SnapshotStamp stamp, long nowUnix) =>
        _answers.TryGetValue((placeId, serviceId, first, last), out var kept) && kept.Stamp == stamp && nowUnix < kept.ValidUntilUnix
            ? kept.Answer
            : null;

    /// <param name="validUntilUnix">when the first slot in the answer starts (it must then leave the answer)</param>
    public void Keep(int placeId, int serviceId, DateOnly first, DateOnly last, SnapshotStamp stamp, long validUntilUnix, TaggedJson answer)
    {
        if (_answers.Count >= MaxAnswers)
        {
            _answers.Clear();
        }
        _answers[(placeId, serviceId, first, last)] = new Kept(stamp, validUntilUnix, answer);
    }

    private sealed record Kept(SnapshotStamp Stamp, long ValidUntilUnix, TaggedJson Answer);
}
