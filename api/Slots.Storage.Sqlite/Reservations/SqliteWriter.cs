using System.Threading.Channels;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Logging;

namespace Slots.Storage.Sqlite;

/// <summary>
/// The single writer of the SQLite file. SQLite takes one writer at a time anyway; queueing the
/// writes here and committing up to <c>MaxBatch</c> of them in one BEGIN IMMEDIATE transaction
/// (group commit) pays one fsync per batch instead of one per reservation and never spins on
/// SQLITE_BUSY. A batch first runs without savepoints (two statements fewer per operation); only
/// when an operation throws is the batch rolled back and replayed with each operation inside its
/// own savepoint, so the failing one is rolled back alone and the rest of the batch still commits.
/// The writer runs on a thread of its own.
/// </summary>
public sealed partial class SqliteWriter : IAsyncDisposable
{
    private readonly Channel<IWrite> _queue = Channel.CreateUnbounded<IWrite>(new() { SingleReader = true });
    private readonly string _connectionString;
    private readonly int _maxBatch;
    private readonly ILogger _logger;
    private readonly TaskCompletionSource _stopped = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public SqliteWriter(string connectionString, int maxBatch, ILogger<SqliteWriter> logger)
    {
        _connectionString = connectionString;
        _maxBatch = Math.Max(1, maxBatch);
        _logger = logger;
        // A thread of its own: the writer blocks on SQLite's calls (and on fsync) by nature, so it
        // neither takes a thread-pool thread away from the requests nor waits for one between batches.
        var thread = new Thread(Run) { IsBackground = true, Name = "Slots SQLite writer" };
        thread.Start();
    }

    /// <summary>Runs <paramref name="work"/> inside the writer's transaction and returns its result once committed.</summary>
    public Task<T> WriteAsync<T>(Func<SqliteHotPath, T> work, CancellationToken ct)
    {
        var write = new Write<T>(work, ct);
        ObjectDisposedException.ThrowIf(!_queue.Writer.TryWrite(write), this);
        return write.Completion.Task;
    }

    public async ValueTask DisposeAsync()
    {
        _queue.Writer.TryComplete();
        await _stopped.Task;
    }

    private void Run()
    {
        var batch = new List<IWrite>(_maxBatch);
        SqliteHotPath? hotPath = null;
        try
        {
            // Blocking waits are right here: this thread does nothing else.
            while (_queue.Reader.WaitToReadAsync().AsTask().GetAwaiter().GetResult())
            {
                while (batch.Count < _maxBatch && _queue.Reader.TryRead(out var write))
                {
                    batch.Add(write);
                }
                try
                {
                    hotPath ??= Open();
                    Commit(hotPath, batch);
                }
                catch (Exception ex)
                {
                    LogBatchFailed(_logger, batch.Count, ex);
                    foreach (var write in batch)
                    {
                        write.Fail(ex);
                    }
                    // The connection may be unusable now; start over with a fresh one.
                    hotPath?.DisposeAsync().AsTask().GetAwaiter().GetResult();
                    hotPath = null;
                }
                batch.Clear();
            }
        }
        finally
        {
            hotPath?.DisposeAsync().AsTask().GetAwaiter().GetResult();
            _stopped.TrySetResult();
        }
    }

    private SqliteHotPath Open()
    {
        var connection = new SqliteConnection(_connectionString);
        connection.Open();
        SqliteConnections.ConfigureAsync(connection, CancellationToken.None).GetAwaiter().GetResult();
        return new SqliteHotPath(connection);
    }

    private static void Commit(SqliteHotPath hotPath, List<IWrite> batch)
    {
        if (!TryCommit(hotPath, batch, savepoints: false))
        {
            // Replayed one savepoint each: the culprit fails alone. The operations are database work
            // only, so running them again after the rollback is safe.
            TryCommit(hotPath, batch, savepoints: true);
        }
    }

    /// <summary>
    /// The batch in one transaction, answered after its commit. With savepoints an operation that
    /// throws is rolled back alone and fails; without them it rolls the whole batch back and nothing
    /// is answered (false).
    /// </summary>
    private static bool TryCommit(SqliteHotPath hotPath, List<IWrite> batch, bool savepoints)
    {
        using var tx = hotPath.Connection.BeginTransaction(deferred: false);
        hotPath.Transaction = tx;
        var done = new List<IWrite>(batch.Count);
        foreach (var write in batch)
        {
            if (write.IsCancelled)
            {
                write.Cancel();
                continue;
            }
            if (savepoints)
            {
                tx.Save("op");
            }
            try
            {
                write.Run(hotPath);
                if (savepoints)
                {
                    tx.Release("op");
                }
                done.Add(write);
            }
            catch (Exception ex) when (savepoints)
            {
                // A bug or a constraint in one operation must not take the others down with it.
                tx.Rollback("op");
                tx.Release("op");
                hotPath.ForgetEventIds();
                write.Fail(ex);
            }
            catch (Exception)
            {
                tx.Rollback();
                hotPath.Transaction = null;
                return false;
            }
        }
        tx.Commit();
        hotPath.Transaction = null;
        // Answer only after the commit: a 201 must never precede durability.
        foreach (var write in done)
        {
            write.Publish();
        }
        return true;
    }

    private interface IWrite
    {
        bool IsCancelled { get; }
        void Run(SqliteHotPath hotPath);
        void Publish();
        void Fail(Exception ex);
        void Cancel();
    }

    private sealed class Write<T>(Func<SqliteHotPath, T> work, CancellationToken ct) : IWrite
    {
        private T? _result;

        public TaskCompletionSource<T> Completion { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);
        public bool IsCancelled => ct.IsCancellationRequested;
        public void Run(SqliteHotPath hotPath) => _result = work(hotPath);
        public void Publish() => Completion.TrySetResult(_result!);
        public void Fail(Exception ex) => Completion.TrySetException(ex);
        public void Cancel() => Completion.TrySetCanceled(ct);
    }

    [LoggerMessage(EventId = 2101, Level = LogLevel.Error, Message = "SQLite write batch of {Count} failed and was rolled back")]
    private static partial void LogBatchFailed(ILogger logger, int count, Exception ex);
}
