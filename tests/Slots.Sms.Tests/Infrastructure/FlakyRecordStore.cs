namespace Slots.Sms.Tests.Infrastructure;

/// <summary>
/// The backend's SMS store with a database that goes away at the worst moment: the first
/// <see cref="FailRecords"/> calls to RecordSentAsync throw, as when PostgreSQL is stopped between
/// the gateway's answer and the record. Everything else passes through.
/// </summary>
public sealed class FlakyRecordStore(ISmsStore inner) : ISmsStore
{
    private int _recordCalls;

    /// <summary>How many record calls fail before they start to pass; int.MaxValue for a database that never comes back.</summary>
    public int FailRecords { get; set; }

    public int RecordCalls => Volatile.Read(ref _recordCalls);

    public Task<IReadOnlyList<OutboxRow>> ReadUnsentAsync(int max, CancellationToken ct) => inner.ReadUnsentAsync(max, ct);

    public Task MarkSentAsync(IReadOnlyCollection<long> ids, long now, CancellationToken ct) => inner.MarkSentAsync(ids, now, ct);

    public Task<bool> WasSentAsync(long messageId, CancellationToken ct) => inner.WasSentAsync(messageId, ct);

    public Task<SmsClaimResult> ClaimAsync(SmsClaim claim, long leaseSeconds, CancellationToken ct) => inner.ClaimAsync(claim, leaseSeconds, ct);

    public Task ReleaseAsync(SmsClaim claim, CancellationToken ct) => inner.ReleaseAsync(claim, ct);

    public Task RecordSentAsync(SmsSendRecord record, CancellationToken ct) =>
        Interlocked.Increment(ref _recordCalls) <= FailRecords
            ? throw new TimeoutException("the database is restarting")
            : inner.RecordSentAsync(record, ct);
}
