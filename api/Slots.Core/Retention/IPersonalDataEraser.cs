namespace Slots.Retention;

/// <summary>What one erasure run did, by kind of row.</summary>
public sealed record ErasedRows(int Reservations, int Outbox, int WaitingList, int Persons, int AdmissionJoins)
{
    public int Total => Reservations + Outbox + WaitingList + Persons + AdmissionJoins;
}

/// <summary>
/// Per-backend erasure of personal data that has come due. Every statement is idempotent and
/// touches only rows still holding data, so a run cut off half-way is finished by the next.
/// </summary>
public interface IPersonalDataEraser
{
    /// <summary>
    /// Blanks name, phone and person hash of bookings (hot, on disk, and their change records) and
    /// SMS rows of days before <paramref name="daysBefore"/>, and of waiting-list entries whose
    /// days all lie before it; forgets who held a booking that ended before
    /// <paramref name="endedBefore"/> and who joined a waiting room closed before it.
    /// </summary>
    Task<ErasedRows> EraseAsync(DateOnly daysBefore, DateTimeOffset endedBefore, DateTimeOffset now, CancellationToken ct);
}
