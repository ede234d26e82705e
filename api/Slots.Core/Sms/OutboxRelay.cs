using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Slots.Places;
using Slots.Reservations;

namespace Slots.Sms;

/// <summary>
/// Moves outbox rows to the transport and marks them sent only once the transport has them (the
/// broker confirmed, or the sender took them). Rows go in id order; the rows of one reservation
/// go one at a time, and a row that failed holds back the later rows of its reservation, so a
/// "cancelled" never overtakes its "reserved". When the transport breaks (the broker is down) the
/// relay waits, doubling the wait up to ReconnectMaxDelay, and resumes from the unsent rows.
/// A pair is one booking to its person: one SMS confirms both doses, and its cancel (always the
/// pair's, by the first code) is told once, by the first dose's message; the second dose's own
/// "cancelled" row is marked sent without a message.
/// </summary>
public sealed partial class OutboxRelay(
    ISmsStore store,
    IOutboxTransport transport,
    PlaceDirectory places,
    IDosePairStore pairs,
    TimeProvider clock,
    SmsMetrics metrics,
    IOptions<SmsOptions> options,
    ILogger<OutboxRelay> logger)
{
    private readonly SemaphoreSlim _one = new(1, 1);
    private DateTimeOffset _retryAt = DateTimeOffset.MinValue;
    private TimeSpan _backOff = TimeSpan.Zero;

    /// <summary>True while the relay waits before reconnecting to a broken transport.</summary>
    public bool BackingOff => clock.GetUtcNow() < _retryAt;

    /// <summary>How long until the relay tries a broken transport again (zero or less: it may now).</summary>
    public TimeSpan RetryIn => _retryAt - clock.GetUtcNow();

    /// <summary>The wait after the latest break, doubling while the transport stays broken; zero once a hand-over went through.</summary>
    public TimeSpan BackOff => _backOff;

    /// <summary>
    /// True from a transport break until the relay's next try. Unlike <see cref="BackingOff"/> it stays
    /// true once the wait has passed, so a caller that comes back late still knows a try is due.
    /// </summary>
    public bool RetryPending { get; private set; }

    /// <summary>Relays one batch of unsent rows. Returns how many were marked sent (0: nothing to do, or nothing could go now).</summary>
    public async Task<int> RelayAsync(CancellationToken ct)
    {
        if (BackingOff)
        {
            return 0;
        }
        await _one.WaitAsync(ct);
        try
        {
            RetryPending = false;
            // A broker's queue holds a lead of what its consumers send (Slots:Sms:QueueAhead); the rest waits here.
            var room = await transport.RoomAsync(ct);
            if (room.Broken is not null)
            {
                await BackOffAsync(room.Broken);
                return 0;
            }
            if (room.Messages == 0)
            {
                return 0;
            }
            var rows = await store.ReadUnsentAsync(Math.Min(options.Value.RelayBatchSize, room.Messages), ct);
            metrics.OutboxDepth(rows.Count);
            if (rows.Count == 0)
            {
                return 0;
            }
            var messages = new List<SmsEvent>(rows.Count);
            // A pair's confirmation names its second dose: one read for the batch's bookings.
            var seconds = await pairs.SecondsAsync([.. rows.Where(r => r.Kind == ChangeKind.Reserved).Select(r => r.Code)], ct);
            // A second dose's own messages (its reminder, a site's cancel) name the pair's code: the one the person knows,
            // the one the manage page finds.
            var firsts = await pairs.FirstsAsync([.. rows.Where(r => r.Kind != ChangeKind.Reserved).Select(r => r.Code)], ct);
            // A person cancels a pair only whole, by its first code (ReservationService.CancelAsync), so a second
            // dose's cancel always follows its first's, whose message tells it.
            var told = rows.Where(r => r.Kind == ChangeKind.Cancelled && firsts.ContainsKey(r.Code)).Select(r => r.Id).ToHashSet();
            if (told.Count > 0)
            {
                await store.MarkSentAsync(told, clock.GetUtcNow().ToUnixTimeSeconds(), CancellationToken.None);
            }
            foreach (var row in rows.Where(r => !told.Contains(r.Id)))
            {
                var place = await places.FindAsync(row.PlaceId, ct);
                (DateOnly, TimeOnly)? second = row.Kind == ChangeKind.Reserved && seconds.TryGetValue(row.Code, out var dose)
                    ? (dose.Day, TimeOnly.FromTimeSpan(TimeSpan.FromMinutes(dose.StartMinute)))
                    : null;
                var code = firsts.GetValueOrDefault(row.Code, row.Code);
                messages.Add(SmsEvent.From(row.Kind, row.Id, code, row.Phone, row.Language, place?.Name ?? $"#{row.PlaceId}",
                    row.Day, TimeOnly.FromTimeSpan(TimeSpan.FromMinutes(row.StartMinute)), row.PlaceId, row.Note, second));
            }
            return told.Count + await RelayWavesAsync(messages, ct);
        }
        finally
        {
            _one.Release();
        }
    }

    private async Task<int> RelayWavesAsync(List<SmsEvent> messages, CancellationToken ct)
    {
        var held = new HashSet<string>(StringComparer.Ordinal);
        var relayed = 0;
        foreach (var wave in Waves(messages))
        {
            var ready = wave.Where(m => !held.Contains(m.Code)).ToList();
            if (ready.Count == 0)
            {
                continue;
            }
            var result = await transport.HandOverAsync(ready, ct);
            var accepted = result.Accepted as IReadOnlySet<long> ?? result.Accepted.ToHashSet();
            // Not the caller's token: the broker has these, and their rows must say so.
            await store.MarkSentAsync(result.Accepted, clock.GetUtcNow().ToUnixTimeSeconds(), CancellationToken.None);
            relayed += accepted.Count;
            metrics.Relayed.Add(accepted.Count);
            held.UnionWith(ready.Where(m => !accepted.Contains(m.Id)).Select(m => m.Code));
            if (result.Broken is not null)
            {
                await BackOffAsync(result.Broken);
                return relayed;
            }
        }
        _backOff = TimeSpan.Zero;
        return relayed;
    }

    private async Task BackOffAsync(Exception broken)
    {
        await transport.ResetAsync();
        // The first reconnect comes after half a second: in a cluster another node has taken the
        // queue over by then (RabbitMqClusterTests: first confirm about 0.5 s after the leader's
        // kill; a reconnect after 100 ms stalled there). A broker that stays down is asked ever less often.
        _backOff = _backOff == TimeSpan.Zero
            ? TimeSpan.FromMilliseconds(500)
            : TimeSpan.FromTicks(Math.Min(_backOff.Ticks * 2, options.Value.ReconnectMaxDelay.Ticks));
        _retryAt = clock.GetUtcNow() + _backOff;
        RetryPending = true;
        LogTransportBroken(logger, _backOff.TotalSeconds, broken);
    }

    /// <summary>Wave k holds the k-th message of every reservation code, in id order.</summary>
    internal static IEnumerable<List<SmsEvent>> Waves(IReadOnlyList<SmsEvent> messages)
    {
        var byCode = messages.GroupBy(m => m.Code, StringComparer.Ordinal).Select(g => g.OrderBy(m => m.Id).ToList()).ToList();
        var depth = byCode.Count == 0 ? 0 : byCode.Max(g => g.Count);
        for (var k = 0; k < depth; k++)
        {
            yield return byCode.Where(g => g.Count > k).Select(g => g[k]).OrderBy(m => m.Id).ToList();
        }
    }

    [LoggerMessage(EventId = 5001, Level = LogLevel.Warning, Message = "SMS transport failed; the relay retries in {Seconds} s from the unsent outbox rows")]
    private static partial void LogTransportBroken(ILogger logger, double seconds, Exception ex);
}
