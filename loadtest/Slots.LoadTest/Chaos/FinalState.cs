namespace Slots.LoadTest.Chaos;

/// <summary>An active reservation in the hot tables.</summary>
public sealed record HotReservation(string Code, SlotRef Slot, int Seat, string PersonHash);

/// <summary>A hot seat that shows a code.</summary>
public sealed record HeldSeat(SlotRef Slot, int Seat, string Code);

/// <summary>A row of the disk table reservations.</summary>
public sealed record DiskReservation(string Code, SlotRef Slot, int Seat, string PersonHash, bool Cancelled);

/// <summary>A remembered Idempotency-Key: its outcome (1 reserved) and the code it answered.</summary>
public sealed record IdempotencyRow(string Key, int Outcome, string? Code);

/// <summary>An SMS outbox row: kind 1 reserved, 2 cancelled, 3 rescheduled.</summary>
public sealed record OutboxRow(long Id, int Kind, string Code, bool Sent);

/// <summary>
/// One line an SMS sink file holds: the message id, the process that sent it (the file's name, which is
/// the stack's name of that scheduler) and when the sink wrote it.
/// </summary>
public sealed record SinkLine(long Id, string Sender, DateTimeOffset At);

/// <summary>One run of a scheduler job as the run log showed it (started in whole seconds, as job_runs keeps it).</summary>
public sealed record JobRunSample(string Job, long StartedAtSeconds, long DurationMs, string Instance, bool Ok);

/// <summary>
/// Everything the checker reads after the final flush and relay: the hot and disk tables, the outbox,
/// what the SMS consumer recorded, the lines the SMS sinks wrote (one per send, repeats kept)
/// and the scheduler's runs as they were sampled during the run.
/// </summary>
public sealed record FinalState
{
    public IReadOnlyList<HotReservation> Hot { get; init; } = [];
    public IReadOnlyList<HeldSeat> Seats { get; init; } = [];
    public IReadOnlyDictionary<SlotRef, int> Capacity { get; init; } = new Dictionary<SlotRef, int>();
    public IReadOnlyList<DiskReservation> Disk { get; init; } = [];

    /// <summary>person_hash → code of active_persons.</summary>
    public IReadOnlyDictionary<string, string> ActivePersons { get; init; } = new Dictionary<string, string>();
    public IReadOnlyList<IdempotencyRow> Idempotency { get; init; } = [];
    public IReadOnlyList<OutboxRow> Outbox { get; init; } = [];
    public IReadOnlySet<long> SmsSent { get; init; } = new HashSet<long>();
    public IReadOnlyList<SinkLine> SinkLines { get; init; } = [];
    public long PendingChanges { get; init; }

    /// <summary>The (place, day) pairs the hot window holds: disk rows of those days must be hot too.</summary>
    public IReadOnlySet<(int PlaceId, string Day)> HotDays { get; init; } = new HashSet<(int, string)>();
    public IReadOnlyList<JobRunSample> JobRuns { get; init; } = [];

    /// <summary>
    /// Whether this read holds an SMS the settle before it did not see: the scheduler's own jobs (the
    /// day-before reminders, due at a time of day) keep writing outbox rows after the workload stops,
    /// and one written between the settle and this read has had no time to be relayed. The run then
    /// settles and reads again, rather than call that SMS lost.
    /// </summary>
    public bool WroteSmsSince(long outboxAtSettle) => Outbox.Count > outboxAtSettle;
}
