using Microsoft.Extensions.Logging;
using Npgsql;
using NpgsqlTypes;
using Slots.Reservations;

namespace Slots.Storage.Postgres;

/// <summary>
/// Group commit for PostgreSQL (<see cref="GroupCommit{TOperation, TAnswer}"/>). Reservations,
/// cancellations and reschedules wait in one queue; a batch goes as ONE call of slots_apply with
/// arrays (one transaction, one round trip, one fsync; reservations decided by a handful of set
/// statements, Schema/Functions/slots_apply.sql), and every operation is answered after the
/// commit, so a 201 never precedes durability. The answer carries what the 201 shows.
/// <list type="bullet">
/// <item>Operations are sorted by person, then code, so concurrent batches take row locks in one order.</item>
/// <item>A deadlock or serialization failure retries the batch once, then splits it in halves,
/// down to the failing operation alone: one bad operation never fails its neighbours.</item>
/// <item>A broken connection fails the batch it carried (the API answers 503; the statement was
/// one transaction, so nothing of it is half-written, and a retry with the same key replays
/// what did commit). The next batch rents another connection from the pool.</item>
/// </list>
/// </summary>
public sealed class PostgresBatcher : IAsyncDisposable
{
    private const string Apply = """
        SELECT o_status, o_code, o_replayed, o_minutes, o_detail, o_code2, o_day2, o_minute2, o_minutes2
        FROM slots_apply($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
        """;

    private static readonly IComparer<Operation> LockOrder = Comparer<Operation>.Create(static (a, b) =>
    {
        var byPerson = string.CompareOrdinal(a.Person, b.Person);
        return byPerson != 0 ? byPerson : string.CompareOrdinal(a.Code, b.Code);
    });

    private readonly NpgsqlDataSource _dataSource;
    private readonly GroupCommit<Operation, Applied> _commit;

    public PostgresBatcher(NpgsqlDataSource dataSource, PostgresBatchOptions options, ILogger<PostgresBatcher> logger)
    {
        _dataSource = dataSource;
        _commit = new(options, LockOrder, SendAsync, Conflict, logger);
    }

    /// <summary>Queues a reservation; the answer comes once its batch has committed.</summary>
    public Task<Applied> ReserveAsync(ReserveCommand c) =>
        _commit.CommitAsync(new Operation(1, c.Slot.PlaceId, c.Slot.Day, c.Slot.StartMinute, c.Slot.ServiceId, c.PersonHash, c.Phone, c.Name,
            c.Language, c.NewCode, c.IdempotencyKey, c.Fingerprint, c.Now.ToUnixTimeSeconds(), Birth: c.BornOn,
            Invite: c.InvitationHash, Code2: c.SecondCode, Day2From: c.Second?.From, Day2To: c.Second?.To, Minute2: c.Second?.StartMinute,
            By: c.BookedBy, Sms: c.BookedBy is null ? null : c.Sms));

    public Task<Applied> CancelAsync(CancelCommand c) =>
        _commit.CommitAsync(new Operation(2, 0, default, 0, 0, c.Proof.PersonHash, c.Proof.Phone, null, null,
            c.Code, null, null, c.Now.ToUnixTimeSeconds()));

    // The move stays within the booking's service: slots_reschedule takes the service from the booking's row.
    public Task<Applied> RescheduleAsync(RescheduleCommand c) =>
        _commit.CommitAsync(new Operation(3, c.Target.PlaceId, c.Target.Day, c.Target.StartMinute, c.Target.ServiceId, c.Proof.PersonHash,
            c.Proof.Phone, null, null, c.Code, null, null, c.Now.ToUnixTimeSeconds()));

    public ValueTask DisposeAsync() => _commit.DisposeAsync();

    // A unique violation on an idempotency key (in idempotency, or on a hot reservation row): a
    // booking with the same key committed between the batch's read and its write that did not take
    // the key's lock (the hot path's own racers and the cold path wait on it). Sent again, the
    // batch reads that key and answers from it.
    private static string? Conflict(Exception ex) =>
        ex is PostgresException { SqlState: PostgresErrorCodes.DeadlockDetected or PostgresErrorCodes.SerializationFailure or PostgresErrorCodes.UniqueViolation } pg
            ? pg.SqlState : null;

    private async Task<Applied[]> SendAsync(IReadOnlyList<Operation> batch)
    {
        await using var connection = await _dataSource.OpenConnectionAsync();
        await using var apply = new NpgsqlCommand(Apply, connection);
        var p = apply.Parameters;
        p.Add(Array(batch, o => o.Kind, NpgsqlDbType.Integer));
        p.Add(Array(batch, o => o.PlaceId, NpgsqlDbType.Integer));
        p.Add(Array(batch, o => o.Day, NpgsqlDbType.Date));
        p.Add(Array(batch, o => o.StartMinute, NpgsqlDbType.Integer));
        p.Add(Array(batch, o => o.ServiceId, NpgsqlDbType.Integer));
        p.Add(Array(batch, o => o.Person, NpgsqlDbType.Text));
        p.Add(Array(batch, o => o.Phone, NpgsqlDbType.Text));
        p.Add(Array(batch, o => o.Name, NpgsqlDbType.Text));
        p.Add(Array(batch, o => o.Language, NpgsqlDbType.Text));
        p.Add(Array(batch, o => o.Code, NpgsqlDbType.Text));
        p.Add(Array(batch, o => o.Key, NpgsqlDbType.Text));
        p.Add(Array(batch, o => o.Fingerprint, NpgsqlDbType.Text));
        p.Add(Array(batch, o => o.Now, NpgsqlDbType.Bigint));
        p.Add(Optional(batch, o => o.Birth, NpgsqlDbType.Date));
        p.Add(Optional(batch, o => o.Invite, NpgsqlDbType.Text));
        p.Add(Optional(batch, o => o.Code2, NpgsqlDbType.Text));
        p.Add(Optional(batch, o => o.Day2From, NpgsqlDbType.Date));
        p.Add(Optional(batch, o => o.Day2To, NpgsqlDbType.Date));
        p.Add(Optional(batch, o => o.Minute2, NpgsqlDbType.Integer));
        p.Add(Optional(batch, o => o.By, NpgsqlDbType.Text));
        p.Add(Optional(batch, o => o.Sms, NpgsqlDbType.Boolean));
        await apply.PrepareAsync();
        var results = new Applied[batch.Count];
        await using var row = await apply.ExecuteReaderAsync();
        for (var i = 0; i < results.Length; i++)
        {
            if (!await row.ReadAsync())
            {
                throw new InvalidOperationException($"slots_apply answered {i} rows for a batch of {results.Length}.");
            }
            results[i] = new Applied(row.GetInt32(0), row.IsDBNull(1) ? null : row.GetString(1), row.GetBoolean(2), row.GetInt32(3),
                row.IsDBNull(4) ? null : row.GetInt32(4), row.IsDBNull(5) ? null : row.GetString(5),
                row.IsDBNull(6) ? null : row.GetFieldValue<DateOnly>(6), row.IsDBNull(7) ? null : row.GetInt32(7),
                row.IsDBNull(8) ? null : row.GetInt32(8));
        }
        return results;
    }

    /// <summary>The values of an optional field, or NULL when no operation of the batch has one.</summary>
    private static NpgsqlParameter Optional<T>(IReadOnlyList<Operation> batch, Func<Operation, T?> value, NpgsqlDbType type)
        where T : struct
    {
        var values = new T?[batch.Count];
        var any = false;
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = value(batch[i]);
            any |= values[i].HasValue;
        }
        return new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Array | type, Value = any ? values : DBNull.Value };
    }

    /// <summary>The values of a text field; an optional one (every value null) goes as NULL.</summary>
    private static NpgsqlParameter Optional(IReadOnlyList<Operation> batch, Func<Operation, string?> value, NpgsqlDbType type)
    {
        var values = new string?[batch.Count];
        var any = false;
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = value(batch[i]);
            any |= values[i] is not null;
        }
        return new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Array | type, Value = any ? values : DBNull.Value };
    }

    private static NpgsqlParameter<T[]> Array<T>(IReadOnlyList<Operation> batch, Func<Operation, T> value, NpgsqlDbType type)
    {
        var values = new T[batch.Count];
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = value(batch[i]);
        }
        return new() { NpgsqlDbType = NpgsqlDbType.Array | type, TypedValue = values };
    }

    /// <summary>
    /// One queued operation as slots_apply takes it (Kind: 1 reserve, 2 cancel, 3 reschedule). The
    /// campaign's fields stay null until their features fill them: the birth date and invitation code
    /// hash for eligibility, a pair's second dose, a booking made by site staff and its SMS choice.
    /// A batch where none has one sends that array as NULL.
    /// </summary>
    private sealed record Operation(
        int Kind, int PlaceId, DateOnly Day, int StartMinute, int ServiceId, string? Person, string? Phone, string? Name, string? Language,
        string Code, string? Key, string? Fingerprint, long Now,
        DateOnly? Birth = null, string? Invite = null,
        string? Code2 = null, DateOnly? Day2From = null, DateOnly? Day2To = null, int? Minute2 = null,
        string? By = null, bool? Sms = null);
}

/// <summary>
/// One operation's answer: a status (ReservationStatus, CancelStatus or RescheduleStatus), the code, whether it
/// was replayed, the slot's length; the refusal's reason (NotEligible), and where a pair's second dose was seated.
/// </summary>
public readonly record struct Applied(int Status, string? Code, bool Replayed, int Minutes,
    int? Detail = null, string? Code2 = null, DateOnly? Day2 = null, int? Minute2 = null, int? Minutes2 = null)
{
    /// <summary>The pair's second dose as slots_apply seated it; null for a single booking (or a replay, which reads it back).</summary>
    public SecondDose? Second => Code2 is { } code && Day2 is { } day && Minute2 is { } minute
        ? new SecondDose(code, day, minute, Minutes2 ?? 0)
        : null;
}

/// <summary>Slots:Storage:Postgres:Batch — how the API instance groups its hot-path writes.</summary>
public sealed class PostgresBatchOptions : GroupCommitOptions
{
    public const string Section = "Slots:Storage:Postgres:Batch";
}
