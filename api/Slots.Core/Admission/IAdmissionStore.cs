namespace Slots.Admission;

/// <summary>The openings and their counters as stored, and the admission waves still in their admission time.</summary>
public sealed record RoomRecords(IReadOnlyList<Opening> Openings, IReadOnlyList<AdmissionWave> Waves);

/// <summary>Where a join landed: the person's ticket, and whether this join made it (false: they had joined before).</summary>
public readonly record struct JoinedTicket(long Ticket, bool New);

/// <summary>
/// One step of an opening's serving counter, guarded: it is written only when the opening is
/// still open and still at <see cref="SeenVersion"/>, so of two nodes that read the same counter
/// only one moves it. Positions (<see cref="SeenServed"/>, <see cref="Served"/>] become an admission wave.
/// </summary>
public sealed record CounterStep(long OpeningId, long SeenVersion, long SeenServed, long Served, long SeatsLeft, long CreditAtMs, DateTimeOffset Now);

/// <summary>An admission being used for a booking: one booking per admission, identified by the booking's idempotency key.</summary>
public sealed record AdmissionClaim(long OpeningId, long Ticket, long Position, string Key, DateTimeOffset Now);

/// <summary>
/// The waiting room's port. Joins are the only writes per arrival, and they come batched;
/// status answers come from <see cref="LoadAsync"/> read once per instance per refresh.
/// </summary>
public interface IAdmissionStore
{
    Task<Opening> CreateAsync(NewOpening opening, DateTimeOffset now, CancellationToken ct);

    /// <summary>Closes an open opening; false when there is none with that id or it was closed already.</summary>
    Task<bool> CloseAsync(long openingId, DateTimeOffset now, CancellationToken ct);

    Task<Opening?> FindAsync(long openingId, CancellationToken ct);

    /// <summary>Openings that are open or closed after <paramref name="closedSince"/>, and the admission waves after <paramref name="wavesSince"/>.</summary>
    Task<RoomRecords> LoadAsync(DateTimeOffset closedSince, DateTimeOffset wavesSince, CancellationToken ct);

    /// <summary>
    /// Joins people (keyed hashes of their identity, one ticket each per opening) in one atomic
    /// write, the tickets in the order given; a person who joined before keeps their ticket.
    /// When the opening time has come and the pre-queue is not sealed yet it is sealed first
    /// (with <paramref name="shuffleKey"/>), so a join after the opening never lands in it.
    /// Null when the opening is not open.
    /// </summary>
    Task<IReadOnlyList<JoinedTicket>?> JoinAsync(long openingId, IReadOnlyList<string> personKeys, DateTimeOffset now, byte[] shuffleKey, CancellationToken ct);

    /// <summary>Fixes the pre-queue at the tickets issued so far and its shuffle key, once, when the opening time has come.</summary>
    Task<bool> SealAsync(long openingId, DateTimeOffset now, byte[] shuffleKey, CancellationToken ct);

    /// <summary>Free seats of slots not yet begun at these places, hot and cold.</summary>
    Task<long> FreeSeatsAsync(IReadOnlyList<int> placeIds, DateTimeOffset now, CancellationToken ct);

    /// <summary>Admitted positions of admission waves after <paramref name="admittedSince"/> that no booking has used.</summary>
    Task<long> OutstandingAsync(long openingId, DateTimeOffset admittedSince, CancellationToken ct);

    /// <summary>Writes one guarded step of the counter (and its wave); false when another node moved it first.</summary>
    Task<bool> StepAsync(CounterStep step, CancellationToken ct);

    /// <summary>Records that a booking uses this admission; false when another booking (another key) used it.</summary>
    Task<bool> ClaimAsync(AdmissionClaim claim, CancellationToken ct);

    /// <summary>Gives the admission back after a booking that did not book.</summary>
    Task ReleaseAsync(AdmissionClaim claim, CancellationToken ct);
}
