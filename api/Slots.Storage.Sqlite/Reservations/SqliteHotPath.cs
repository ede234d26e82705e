using Microsoft.Data.Sqlite;

namespace Slots.Storage.Sqlite;

/// <summary>
/// The hot-path statements on the writer's connection, prepared once and reused with their
/// parameter objects (only the values change between runs). Every method
/// runs inside the writer's transaction, so its reads and writes are one atomic unit.
/// </summary>
public sealed partial class SqliteHotPath(SqliteConnection connection) : IAsyncDisposable
{
    private readonly Dictionary<string, SqliteCommand> _commands = new(StringComparer.Ordinal);

    // A block of the outbox's message ids drawn in the current transaction: [_nextEventId, _lastEventId].
    private const int EventIdBlock = 64;
    private long _nextEventId = 1, _lastEventId;

    public SqliteConnection Connection { get; } = connection;

    /// <summary>The writer's transaction; a new one (or none) forgets the message ids the last one drew.</summary>
    public SqliteTransaction? Transaction
    {
        get;
        set
        {
            field = value;
            ForgetEventIds();
        }
    }

    /// <summary>
    /// Drops what is left of the drawn block of message ids: their draw is rolled back with the
    /// transaction or the savepoint that made it, so another insert into the outbox may take them.
    /// </summary>
    public void ForgetEventIds() => _nextEventId = _lastEventId + 1;

    /// <summary>
    /// The next SMS message id from the outbox's own counter (sqlite_sequence): drawn in blocks, so
    /// a booking's confirmation costs no row of its own, and the outbox's AUTOINCREMENT continues
    /// past the block for every other SMS written meanwhile.
    /// </summary>
    private long DrawEventId()
    {
        if (_nextEventId > _lastEventId)
        {
            _lastEventId = (long)Command(Sql.DrawEventIds, ("$n", EventIdBlock)).ExecuteScalar()!;
            _nextEventId = _lastEventId - EventIdBlock + 1;
        }
        return _nextEventId++;
    }

    /// <summary>
    /// The statement prepared once on the writer's connection and bound to these values, in the
    /// writer's transaction. Other stores whose writes join the group commit (the waiting list's
    /// claim, reminders) run theirs through it too. The command stays the hot path's: do not dispose it.
    /// </summary>
    public SqliteCommand Command(string sql, params ReadOnlySpan<(string Name, object Value)> parameters)
    {
        if (!_commands.TryGetValue(sql, out var command))
        {
            command = Connection.CreateCommand();
            command.CommandText = sql;
            _commands[sql] = command;
        }
        command.Transaction = Transaction;
        // Every call site of one statement names its parameters in the same order, so the parameter
        // objects made on its first run are reused and only their values change.
        var bound = command.Parameters;
        if (!SameNames(bound, parameters))
        {
            bound.Clear();
            foreach (var (name, value) in parameters)
            {
                bound.Add(new SqliteParameter(name, value));
            }
            return command;
        }
        for (var i = 0; i < parameters.Length; i++)
        {
            bound[i].Value = parameters[i].Value;
        }
        return command;
    }

    private static bool SameNames(SqliteParameterCollection bound, ReadOnlySpan<(string Name, object Value)> parameters)
    {
        if (bound.Count != parameters.Length)
        {
            return false;
        }
        for (var i = 0; i < parameters.Length; i++)
        {
            if (bound[i].ParameterName != parameters[i].Name)
            {
                return false;
            }
        }
        return true;
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var command in _commands.Values)
        {
            await command.DisposeAsync();
        }
        await Connection.DisposeAsync();
    }
}
