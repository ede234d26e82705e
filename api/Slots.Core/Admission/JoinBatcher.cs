using System.Threading.Channels;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Slots.Admission;

/// <summary>
/// Gathers the joins waiting on this instance and writes them per opening in one store call:
/// a stampede of arrivals costs one statement and one commit per batch, not one per arrival
/// (the same group commit the reservation writers do).
/// </summary>
public sealed partial class JoinBatcher : IAsyncDisposable
{
    private readonly Channel<Pending> _queue = Channel.CreateUnbounded<Pending>(new() { SingleReader = true });
    private readonly IAdmissionStore _store;
    private readonly TimeProvider _clock;
    private readonly int _maxBatch;
    private readonly ILogger _logger;
    private readonly Task _loop;

    private sealed record Pending(long OpeningId, string PersonKey, TaskCompletionSource<JoinedTicket?> Answer);

    public JoinBatcher(IAdmissionStore store, TimeProvider clock, IOptions<AdmissionOptions> options, ILogger<JoinBatcher> logger)
    {
        _store = store;
        _clock = clock;
        _maxBatch = Math.Clamp(options.Value.JoinBatch, 1, 10_000);
        _logger = logger;
        _loop = Task.Run(RunAsync);
    }

    /// <summary>The person's ticket once the batch it went in is committed; null when the opening is not open.</summary>
    public Task<JoinedTicket?> JoinAsync(long openingId, string personKey)
    {
        var pending = new Pending(openingId, personKey, new(TaskCreationOptions.RunContinuationsAsynchronously));
        ObjectDisposedException.ThrowIf(!_queue.Writer.TryWrite(pending), this);
        return pending.Answer.Task;
    }

    public async ValueTask DisposeAsync()
    {
        _queue.Writer.TryComplete();
        await _loop;
    }

    private async Task RunAsync()
    {
        var batch = new List<Pending>(_maxBatch);
        while (await _queue.Reader.WaitToReadAsync())
        {
            while (batch.Count < _maxBatch && _queue.Reader.TryRead(out var pending))
            {
                batch.Add(pending);
            }
            foreach (var opening in batch.GroupBy(p => p.OpeningId))
            {
                await WriteAsync(opening.Key, opening.ToList());
            }
            batch.Clear();
        }
    }

    private async Task WriteAsync(long openingId, List<Pending> joins)
    {
        try
        {
            var tickets = await _store.JoinAsync(openingId, joins.Select(j => j.PersonKey).ToList(), _clock.GetUtcNow(),
                PreQueueShuffle.NewKey(), CancellationToken.None);
            for (var i = 0; i < joins.Count; i++)
            {
                joins[i].Answer.TrySetResult(tickets?[i]);
            }
        }
        catch (Exception ex)
        {
            // Infrastructure, not a business outcome: each caller sees the exception (503 for a lost database).
            LogBatchFailed(_logger, joins.Count, ex);
            foreach (var join in joins)
            {
                join.Answer.TrySetException(ex);
            }
        }
    }

    [LoggerMessage(EventId = 6001, Level = LogLevel.Error, Message = "A batch of {Count} waiting-room joins failed")]
    private static partial void LogBatchFailed(ILogger logger, int count, Exception ex);
}
