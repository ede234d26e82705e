namespace Slots.Staff;

/// <summary>
/// A site's cancel of a block of its slots: one day at one place, slots starting in [FromMinute,
/// ToMinute), with the reason the people booked are told. The same block asked for twice is one
/// block: the second ask answers the first (and finishes it if a crash left it unfinished), until
/// the block is opened again. KeepBookings closes the slots and cancels nothing; ClosesPlace marks
/// the block as one of a place's close, which the place's reopen opens again.
/// </summary>
public sealed record BlockCancelRequest(int PlaceId, DateOnly Day, int FromMinute, int ToMinute, string Reason, string Actor, DateTimeOffset Now,
    bool KeepBookings = false, bool ClosesPlace = false);

/// <summary>
/// Where a block cancel stands. Cancelled counts the bookings it cancelled and told; Kept the
/// bookings it left as they were (checked in at the door, or started before the cancel reached them).
/// </summary>
public sealed record BlockCancel(
    long Id,
    int PlaceId,
    DateOnly Day,
    int FromMinute,
    int ToMinute,
    string Reason,
    string Actor,
    DateTimeOffset CreatedAt,
    DateTimeOffset? FinishedAt,
    int Cancelled,
    int Kept)
{
    public bool Finished => FinishedAt is not null;
}

/// <summary>The opened block, and whether this ask created it (false: the same block was asked for before).</summary>
public sealed record OpenedBlock(BlockCancel Block, bool Created);

/// <summary>How block cancels run: the batch each transaction cancels, and when an unfinished one is taken over.</summary>
public sealed class BlockCancelOptions
{
    public const string Section = "Slots:Staff:BlockCancel";

    /// <summary>Bookings cancelled (and their SMS queued) per transaction.</summary>
    public int Batch { get; set; } = 200;

    /// <summary>An unfinished block with no progress for this long is resumed by the scheduler (its runner died).</summary>
    public TimeSpan ResumeAfter { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>The longest reason a site may give: it goes into every SMS of the block.</summary>
    public const int MaxReason = 100;
}
