namespace Slots.Admission;

public enum RoomState
{
    /// <summary>In line: a position (null before the opening, while the pre-queue is not yet shuffled), people ahead, an estimate.</summary>
    Waiting = 1,

    /// <summary>Admitted: may book until <see cref="RoomStatus.AdmittedUntil"/>.</summary>
    Admitted = 2,

    /// <summary>The scope has no free seat; the room reopens in queue order when seats come back.</summary>
    NoSeatsLeft = 3,

    /// <summary>Staff closed the opening; booking works as it does without one.</summary>
    Closed = 4,

    /// <summary>Admitted once, and the admission time passed without a booking.</summary>
    Expired = 5,
}

/// <summary>What a person in the room is told, and when to ask again.</summary>
public sealed record RoomStatus(
    RoomState State,
    long OpeningId,
    DateTimeOffset OpensAt,
    long SeatsLeft,
    TimeSpan AskAgainIn,
    long? Position = null,
    long? Ahead = null,
    TimeSpan? EstimatedWait = null,
    DateTimeOffset? AdmittedUntil = null);
