using System.Globalization;

namespace Slots.LoadTest.Bench;

/// <summary>
/// What bench-pitr seeds (./slots bench pitr): --seats in the hot window (5,100,000), laid out as 100 places × 30 days
/// × 17 slots a day, so rounded up to a whole number of seats a slot.
/// </summary>
internal sealed record PitrOptions(int Seats)
{
    public const string Usage = """
               Slots.LoadTest bench-pitr [--seats N (5100000)]
                   (./slots bench pitr: RPO and RTO of the point-in-time restore on a running HA stack, SLOTS_STACK_DIR; docs/reliability.md)
        """;

    /// <summary>Slots the seed makes: 100 places × 30 days × 17 a day.</summary>
    public const int Slots = 100 * 30 * 17;

    /// <summary>The options; null with the problems in <paramref name="errors"/>.</summary>
    public static PitrOptions? From(Args args, List<string> errors)
    {
        var seats = args.Whole("seats", 5_100_000, 1, 100_000_000);
        args.RejectUnknown();
        errors.AddRange(args.Errors);
        return errors.Count == 0 ? new PitrOptions(seats) : null;
    }

    public int PerSlot => (Seats + Slots - 1) / Slots;

    /// <summary>The seats seeded: what was asked, rounded up to whole slots.</summary>
    public long Seeded => (long)Slots * PerSlot;

    /// <summary>A duration as the run prints it: seconds with one decimal.</summary>
    public static string Took(TimeSpan span) => span.TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture);

    /// <summary>
    /// Whether the WAL file <paramref name="walFile"/> is in the repository, given pg_stat_archiver's last archived file:
    /// segment names grow in hex with the timeline first, so a name at or past it means it has been archived.
    /// </summary>
    public static bool Archived(string? lastArchived, string walFile) => string.CompareOrdinal(lastArchived ?? "", walFile) >= 0;
}
