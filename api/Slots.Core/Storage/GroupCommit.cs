using System.Threading.Channels;
using Microsoft.Extensions.Logging;

namespace Slots.Storage;

/// <summary>
/// Group commit for a backend's hot-path writes. Operations wait in one queue; each of a few
/// writers takes whatever is waiting (at most MaxBatch), hands it to the backend's sender as ONE
/// call (one statement or proc, one transaction, one round trip, one commit) and answers every
/// operation after that call returned, so an answer never precedes durability. An idle writer
/// sends a lone operation at once: no added delay.
/// <list type="bullet">
/// <item>A batch is sorted by the backend's lock order before it is sent, so concurrent batches
/// touch rows in one order.</item>
/// <item>A conflict (the sender's database said deadlock, serialization failure or the like)
/// retries the batch once, then splits it in halves, down to the failing operation alone, which
/// gets the exception: one bad operation never fails its neighbours.</item>
/// <item>Any other exception (a broken connection) fails the operations of that batch not yet
/// answered; the next batch is sent as usual. The sender opens its connection per call, from
/// the driver's pool, so a broken one is never reused.</item>
/// </list>
/// </summary>
public sealed partial class GroupCommit<TOperation, TAnswer> : IAsyncDisposable
{
    private readonly Channel<Queued> _queue = Channel.CreateUnbounded<Queued>(new() { SingleReader = false });
    private readonly IComparer<TOperation> _lockOrder;
    private readonly Func<IReadOnlyList<TOperation>, Task<TAnswer[]>> _send;
    private readonly Func<Exception, string?> _conflict;
    private readonly int _maxBatch;
    private readonly ILogger _logger;
    private readonly Task[] _writers;

    /// <param name="options">how many writers, and the most operations in one batch</param>
    /// <param name="lockOrder">the order a batch is sent in</param>
    /// <param name="send">one call for the batch; answers in the batch's order</param>
    /// <param name="conflict">the error's code (SQLSTATE, error number) when the exception is a conflict worth retrying, else null</param>
    /// <param name="logger">the backend's logger, so the events keep its category</param>
    public GroupCommit(
        GroupCommitOptions options,
        IComparer<TOperation> lockOrder,
        Func<IReadOnlyList<TOperation>, Task<TAnswer[]>> send,
        Func<Exception, string?> conflict,
        ILogger logger)
    {
        _lockOrder = lockOrder;
        _send = send;
        _conflict = conflict;
        _maxBatch = Math.Max(1, options.MaxBatch);
        _logger = logger;
        _writers = Enumerable.Range(0, Math.Max(1, options.Writers))
            .Select(_ => Task.Run(RunAsync))
            .ToArray();
    }

    /// <summary>Queues an operation; the answer comes once its batch has committed.</summary>
    public Task<TAnswer> CommitAsync(TOperation operation)
    {
        var queued = new Queued(operation, new(TaskCreationOptions.RunContinuationsAsynchronously));
        ObjectDisposedException.ThrowIf(!_queue.Writer.TryWrite(queued), this);
        return queued.Answer.Task;
    }

    /// <summary>Takes no more operations, and returns once the queued ones are answered.</summary>
    public async ValueTask DisposeAsync()
    {
        _queue.Writer.TryComplete();
        await Task.WhenAll(_writers);
    }

    private readonly record struct Queued(TOperation Operation, TaskCompletionSource<TAnswer> Answer);

    private async Task RunAsync()
    {
        // Operations and their answers side by side: sorted together, sliced together, no copies.
        var operations = new TOperation[_maxBatch];
        var answers = new TaskCompletionSource<TAnswer>[_maxBatch];
        while (await _queue.Reader.WaitToReadAsync())
        {
            var count = 0;
            while (count < _maxBatch && _queue.Reader.TryRead(out var queued))
            {
                (operations[count], answers[count]) = (queued.Operation, queued.Answer);
                count++;
            }
            if (count == 0)
            {
                continue; // another writer took what was there
            }
            Array.Sort(operations, answers, 0, count, _lockOrder);
            var batch = new ArraySegment<TOperation>(operations, 0, count);
            var callers = new ArraySegment<TaskCompletionSource<TAnswer>>(answers, 0, count);
            try
            {
                await SendAsync(batch, callers, retried: false);
            }
            catch (Exception ex)
            {
                LogBatchFailed(_logger, count, ex.GetType().Name);
                foreach (var caller in callers)
                {
                    caller.TrySetException(ex);
                }
            }
            Array.Clear(operations, 0, count);
            Array.Clear(answers, 0, count);
        }
    }

    /// <summary>Sends the batch; on a conflict tries once more, then each half on its own.</summary>
    private async Task SendAsync(ArraySegment<TOperation> batch, ArraySegment<TaskCompletionSource<TAnswer>> callers, bool retried)
    {
        try
        {
            var results = await _send(batch);
            if (results.Length != batch.Count)
            {
                throw new InvalidOperationException($"The batch sender answered {results.Length} operations of {batch.Count}.");
            }
            for (var i = 0; i < batch.Count; i++)
            {
                callers[i].TrySetResult(results[i]);
            }
        }
        catch (Exception ex) when (_conflict(ex) is { } error)
        {
            LogConflict(_logger, batch.Count, error);
            if (!retried)
            {
                await SendAsync(batch, callers, retried: true);
            }
            else if (batch.Count == 1)
            {
                callers[0].TrySetException(ex);
            }
            else
            {
                var half = batch.Count / 2;
                await SendAsync(batch[..half], callers[..half], retried: false);
                await SendAsync(batch[half..], callers[half..], retried: false);
            }
        }
    }

    [LoggerMessage(EventId = 2201, Level = LogLevel.Warning, Message = "Reservation batch of {Count} failed ({ExceptionType}); its requests are answered 503")]
    private static partial void LogBatchFailed(ILogger logger, int count, string exceptionType);

    [LoggerMessage(EventId = 2202, Level = LogLevel.Information, Message = "Reservation batch of {Count} met a lock conflict ({Error}); retrying")]
    private static partial void LogConflict(ILogger logger, int count, string error);
}
