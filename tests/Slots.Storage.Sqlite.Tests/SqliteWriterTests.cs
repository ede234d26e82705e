using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Logging.Abstractions;
using Slots.Storage.Sqlite;

namespace Slots.Storage.Sqlite.Tests;

/// <summary>
/// The SQLite writer's group commit: a batch runs without savepoints, and an operation that throws
/// is rolled back alone (the batch replayed one savepoint each), its partial writes with it.
/// </summary>
public sealed class SqliteWriterTests : IAsyncDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("slots-writer-").FullName;

    public ValueTask DisposeAsync()
    {
        SqliteConnection.ClearAllPools();
        Directory.Delete(_folder, recursive: true);
        return ValueTask.CompletedTask;
    }

    [Fact]
    public async Task One_failing_operation_in_a_batch_fails_alone_and_leaves_nothing_half_written()
    {
        var ct = TestContext.Current.CancellationToken;
        var connectionString = $"Data Source={Path.Combine(_folder, "w.db")}";
        await using var writer = new SqliteWriter(connectionString, maxBatch: 100, NullLogger<SqliteWriter>.Instance);
        await writer.WriteAsync(h => Execute(h, "CREATE TABLE t (x INTEGER PRIMARY KEY)"), ct);
        // Hold the writer so the fifty below are queued together and committed as one batch.
        using var gate = new ManualResetEventSlim();
        var blocker = writer.WriteAsync(_ => gate.Wait(TimeSpan.FromSeconds(30)), ct);

        var writes = Enumerable.Range(1, 50).Select(i => writer.WriteAsync(h =>
        {
            Execute(h, $"INSERT INTO t VALUES ({i})");
            if (i == 25)
            {
                // Writes a row, then breaks a constraint: both must go.
                Execute(h, "INSERT INTO t VALUES (1000)");
                Execute(h, "INSERT INTO t VALUES (1000)");
            }
            return i;
        }, ct)).ToList();
        gate.Set();
        await blocker;
        var outcomes = await Task.WhenAll(writes.Select(async w =>
        {
            try
            {
                return (Value: await w, Failed: false);
            }
            catch (SqliteException)
            {
                return (Value: 0, Failed: true);
            }
        }));

        Assert.Equal(49, outcomes.Count(o => !o.Failed));
        Assert.True(outcomes[24].Failed);
        Assert.Equal(Enumerable.Range(1, 50).Where(i => i != 25), outcomes.Where(o => !o.Failed).Select(o => o.Value));
        await using var check = new SqliteConnection(connectionString);
        await check.OpenAsync(ct);
        await using var rows = new SqliteCommand("SELECT group_concat(x) FROM (SELECT x FROM t ORDER BY x)", check);
        Assert.Equal(string.Join(',', Enumerable.Range(1, 50).Where(i => i != 25)), (string)(await rows.ExecuteScalarAsync(ct))!);
    }

    private static int Execute(SqliteHotPath hotPath, string sql)
    {
        using var command = hotPath.Connection.CreateCommand();
        command.Transaction = hotPath.Transaction;
        command.CommandText = sql;
        return command.ExecuteNonQuery();
    }
}
