using System.Threading.Channels;
using Microsoft.Extensions.Logging;
using Npgsql;
using NpgsqlTypes;
using Slots.Reservations;

namespace Slots.Storage.Postgres;

/// <summary>
/// Group commit for PostgreSQL. Reservations, cancellations and reschedules wait in one queue;
/// each of a few writers takes whatever is waiting (at most MaxBatch), sends it as ONE call of
/// slots_apply with arrays (one statement, one transaction, one round trip, one fsync) and
/// answers every operation after the commit, so a 201 never precedes durability. An idle writer
/// sends a lone operation at once: no added delay.
/// <list type="bullet">
/// <item>Operations are sorted by person, then code, so concurrent batches take row locks in one order.</item>
/// <item>A deadlock or serialization failure retries the batch once, then splits it in halves,
/// down to the failing operation alone: one bad operation never fails its neighbours.</item>
/// <item>A broken connection fails the batch it carried (the API answers 503; the statement was
/// one transaction, so nothing of it is half-written, and a retry with the same key replays
/// what did commit). The writer opens a fresh connection for the next batch.</item>
/// </list>
/// </summary>
public sealed partial class PostgresBatcher : IAsyncDisposable
{
    private const string Apply = """
        SELECT o_status, o_code, o_replayed
        FROM slots_apply($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
        """;

    private readonly Channel<Operation> _queue = Channel.CreateUnbounded<Operation>(new() { SingleReader = false });
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _maxBatch;
    private readonly ILogger _logger;
    private readonly Task[] _writers;

    public PostgresBatcher(NpgsqlDataSource dataSource, PostgresBatchOptions options, ILogger<PostgresBatcher> logger)
    {
        _dataSource = dataSource;
        _maxBatch = Math.Max(1, options.MaxBatch);
        _logger = logger;
        _writers = Enumerable.Range(0, Math.Max(1, options.Writers))
            .Select(_ => Task.Run(RunAsync))
            .ToArray();
    }

    /// <summary>Queues a reservation; the answer comes once its batch has committed.</summary>
    public Task<(int Status, string? Code, bool Replayed)> ReserveAsync(ReserveCommand c) =>
        Enqueue(new Operation(1, c.Slot.PlaceId, c.Slot.Day, c.Slot.StartMinute, c.PersonHash, c.Phone, c.Name, c.Language,
            c.NewCode, c.IdempotencyKey, c.Fingerprint, c.Now.ToUnixTimeSeconds()));

    public Task<(int Status, string? Code, bool Replayed)> CancelAsync(CancelCommand c) =>
        Enqueue(new Operation(2, 0, default, 0, c.Proof.PersonHash, c.Proof.Phone, null, null,
            c.Code, null, null, c.Now.ToUnixTimeSeconds()));

    public Task<(int Status, string? Code, bool Replayed)> RescheduleAsync(RescheduleCommand c) =>
        Enqueue(new Operation(3, c.Target.PlaceId, c.Target.Day, c.Target.StartMinute, c.Proof.PersonHash, c.Proof.Phone, null, null,
            c.Code, null, null, c.Now.ToUnixTimeSeconds()));

    public async ValueTask DisposeAsync()
    {
        _queue.Writer.TryComplete();
        await Task.WhenAll(_writers);
    }

    private Task<(int Status, string? Code, bool Replayed)> Enqueue(Operation operation)
    {
        ObjectDisposedException.ThrowIf(!_queue.Writer.TryWrite(operation), this);
        return operation.Answer.Task;
    }

    private async Task RunAsync()
    {
        var batch = new List<Operation>(_maxBatch);
        NpgsqlConnection? connection = null;
        try
        {
            while (await _queue.Reader.WaitToReadAsync())
            {
                while (batch.Count < _maxBatch && _queue.Reader.TryRead(out var operation))
                {
                    batch.Add(operation);
                }
                if (batch.Count == 0)
                {
                    continue; // another writer took what was there
                }
                batch.Sort(LockOrder);
                try
                {
                    connection ??= await _dataSource.OpenConnectionAsync();
                    await ApplyAsync(connection, batch, retried: false);
                }
                catch (Exception ex)
                {
                    LogBatchFailed(_logger, batch.Count, ex.GetType().Name);
                    foreach (var operation in batch)
                    {
                        operation.Answer.TrySetException(ex);
                    }
                    // The connection may be broken; the next batch starts on a fresh one.
                    if (connection is not null)
                    {
                        await connection.DisposeAsync();
                        connection = null;
                    }
                }
                batch.Clear();
            }
        }
        finally
        {
            if (connection is not null)
            {
                await connection.DisposeAsync();
            }
        }
    }

    /// <summary>Sends the batch; on a deadlock or serialization failure tries once more, then each half on its own.</summary>
    private async Task ApplyAsync(NpgsqlConnection connection, List<Operation> batch, bool retried)
    {
        try
        {
            var results = await SendAsync(connection, batch);
            for (var i = 0; i < batch.Count; i++)
            {
                batch[i].Answer.TrySetResult(results[i]);
            }
        }
        catch (PostgresException ex) when (ex.SqlState is PostgresErrorCodes.DeadlockDetected or PostgresErrorCodes.SerializationFailure)
        {
            LogConflict(_logger, batch.Count, ex.SqlState);
            if (!retried)
            {
                await ApplyAsync(connection, batch, retried: true);
            }
            else if (batch.Count == 1)
            {
                batch[0].Answer.TrySetException(ex);
            }
            else
            {
                var half = batch.Count / 2;
                await ApplyAsync(connection, batch[..half], retried: false);
                await ApplyAsync(connection, batch[half..], retried: false);
            }
        }
    }

    private static async Task<(int, string?, bool)[]> SendAsync(NpgsqlConnection connection, List<Operation> batch)
    {
        await using var apply = new NpgsqlCommand(Apply, connection);
        var p = apply.Parameters;
        p.Add(Array(batch, o => o.Kind, NpgsqlDbType.Integer));
        p.Add(Array(batch, o => o.PlaceId, NpgsqlDbType.Integer));
        p.Add(Array(batch, o => o.Day, NpgsqlDbType.Date));
        p.Add(Array(batch, o => o.StartMinute, NpgsqlDbType.Integer));
        p.Add(Array(batch, o => o.Person, NpgsqlDbType.Text));
        p.Add(Array(batch, o => o.Phone, NpgsqlDbType.Text));
        p.Add(Array(batch, o => o.Name, NpgsqlDbType.Text));
        p.Add(Array(batch, o => o.Language, NpgsqlDbType.Text));
        p.Add(Array(batch, o => o.Code, NpgsqlDbType.Text));
        p.Add(Array(batch, o => o.Key, NpgsqlDbType.Text));
        p.Add(Array(batch, o => o.Fingerprint, NpgsqlDbType.Text));
        p.Add(Array(batch, o => o.Now, NpgsqlDbType.Bigint));
        await apply.PrepareAsync();
        var results = new (int, string?, bool)[batch.Count];
        await using var row = await apply.ExecuteReaderAsync();
        for (var i = 0; i < results.Length; i++)
        {
            if (!await row.ReadAsync())
            {
                throw new InvalidOperationException($"slots_apply answered {i} rows for a batch of {results.Length}.");
            }
            results[i] = (row.GetInt32(0), row.IsDBNull(1) ? null : row.GetString(1), row.GetBoolean(2));
        }
        return results;
    }

    private static NpgsqlParameter<T[]> Array<T>(List<Operation> batch, Func<Operation, T> value, NpgsqlDbType type) =>
        new() { NpgsqlDbType = NpgsqlDbType.Array | type, TypedValue = batch.ConvertAll(o => value(o)).ToArray() };

    private static int LockOrder(Operation a, Operation b)
    {
        var byPerson = string.CompareOrdinal(a.Person, b.Person);
        return byPerson != 0 ? byPerson : string.CompareOrdinal(a.Code, b.Code);
    }

    /// <summary>One queued operation as slots_apply takes it (Kind: 1 reserve, 2 cancel, 3 reschedule).</summary>
    private sealed record Operation(
        int Kind, int PlaceId, DateOnly Day, int StartMinute, string? Person, string? Phone, string? Name, string? Language,
        string Code, string? Key, string? Fingerprint, long Now)
    {
        public TaskCompletionSource<(int Status, string? Code, bool Replayed)> Answer { get; } =
            new(TaskCreationOptions.RunContinuationsAsynchronously);
    }

    [LoggerMessage(EventId = 2201, Level = LogLevel.Warning, Message = "Reservation batch of {Count} failed ({ExceptionType}); its requests are answered 503")]
    private static partial void LogBatchFailed(ILogger logger, int count, string exceptionType);

    [LoggerMessage(EventId = 2202, Level = LogLevel.Information, Message = "Reservation batch of {Count} met a lock conflict ({SqlState}); retrying")]
    private static partial void LogConflict(ILogger logger, int count, string sqlState);
}

/// <summary>Slots:Storage:Postgres:Batch — how the API instance groups its hot-path writes.</summary>
public sealed class PostgresBatchOptions
{
    public const string Section = "Slots:Storage:Postgres:Batch";

    /// <summary>Batches in flight at once, each on its own connection: a handful, sized to the cores.</summary>
    public int Writers { get; set; } = Math.Clamp(Environment.ProcessorCount / 4, 1, 4);

    /// <summary>Most operations in one batch.</summary>
    public int MaxBatch { get; set; } = 256;
}
