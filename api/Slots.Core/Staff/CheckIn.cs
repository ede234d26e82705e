namespace Slots.Staff;

/// <summary>Outcomes of a check-in at the door.</summary>
public enum CheckInStatus
{
    CheckedIn = 1,
    /// <summary>Checked in before (a second scan): the answer names when and by whom.</summary>
    AlreadyCheckedIn = 2,
    /// <summary>No booking with this code (or not one this place may see).</summary>
    NotFound = 3,
    /// <summary>The citizen cancelled first.</summary>
    Cancelled = 4,
    OtherPlace = 5,
    OtherDay = 6,
    TooEarly = 7,
    TooLate = 8,
    /// <summary>The national id typed at the door is not the booking's.</summary>
    NotThePerson = 9,
}

/// <summary>A check-in to write, with the trail entry it writes in the same step (check-in, or no-show-override).</summary>
public sealed record CheckInCommand(string Code, int PlaceId, string By, DateTimeOffset Now, string Action = AuditActions.CheckIn);

/// <summary>What a check-in did, with the time and the staff member of the check-in that holds.</summary>
public sealed record CheckInAnswer(CheckInStatus Status, DateTimeOffset? At = null, string? By = null, int? StartMinute = null, string? Name = null);

/// <summary>How early and how late, around a slot's start, a person may be checked in.</summary>
public sealed class CheckInOptions
{
    public const string Section = "Slots:Staff:CheckIn";

    /// <summary>How long before the slot starts the door may check a person in.</summary>
    public TimeSpan Earliest { get; set; } = TimeSpan.FromMinutes(60);

    /// <summary>How long after the slot starts a person may still be checked in.</summary>
    public TimeSpan Latest { get; set; } = TimeSpan.FromMinutes(60);

    /// <summary>How long after the slot ends a booking nobody checked in becomes a no-show.</summary>
    public TimeSpan NoShowGrace { get; set; } = TimeSpan.FromMinutes(60);
}
