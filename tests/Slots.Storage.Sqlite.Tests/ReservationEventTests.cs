using Microsoft.Data.Sqlite;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Slots.Reservations;
using Slots.Storage.Ef;
using Slots.Storage.Sqlite;

namespace Slots.Storage.Sqlite.Tests;

/// <summary>
/// A new hot booking writes three rows on SQLite, as on PostgreSQL (issue 40 item 5): its seat, its
/// person row and its reservation, which carries its Idempotency-Key, its confirmation SMS and its
/// change for the flush. A row that goes hands what it still carries to the tables of their own.
/// </summary>
public sealed class ReservationEventTests : IAsyncDisposable
{
    private const int Place = 1, Nine = 540, Seats = 12;

    private static readonly DateTimeOffset Now = DateTimeOffset.FromUnixTimeSeconds(DateTimeOffset.UtcNow.ToUnixTimeSeconds());
    private static readonly DateOnly HotDay = DateOnly.FromDateTime(Now.UtcDateTime).AddDays(2);

    private readonly string _folder = Directory.CreateTempSubdirectory("slots-events-").FullName;
    private readonly string _connectionString;
    private readonly ServiceProvider _services;

    public ReservationEventTests()
    {
        _connectionString = $"Data Source={Path.Combine(_folder, "e.db")};Pooling=True";
        var services = new ServiceCollection();
        services.AddSingleton(new SqliteWriter(_connectionString, maxBatch: 100, NullLogger<SqliteWriter>.Instance));
        services.AddSingleton(new SqliteConnectionString(_connectionString));
        services.AddSingleton<SqliteReservationStore>();
        services.AddSingleton<SqliteSmsStore>();
        services.AddEfColdSide<SqliteDialect>(_connectionString);
        _services = services.BuildServiceProvider();
    }

    private SqliteReservationStore Store => _services.GetRequiredService<SqliteReservationStore>();

    private SqliteWriter Writer => _services.GetRequiredService<SqliteWriter>();

    public async ValueTask DisposeAsync()
    {
        await _services.DisposeAsync();
        SqliteConnection.ClearAllPools();
        Directory.Delete(_folder, recursive: true);
    }

    [Fact]
    public async Task Ten_bookings_in_one_group_commit_write_three_rows_each_and_one_draw_of_message_ids()
    {
        var ct = TestContext.Current.CancellationToken;
        await CreateAsync(ct);
        var before = await Writer.WriteAsync(TotalChanges, ct);

        var booked = await InOneBatchAsync(Enumerable.Range(0, 10).Select(i => (Func<SqliteHotPath, object?>)(h => h.Reserve(Command($"p{i}")))), ct);
        var after = await Writer.WriteAsync(TotalChanges, ct);

        Assert.All(booked, b => Assert.Equal(ReservationStatus.Reserved, ((ReserveResult)b!).Status));
        // Seat, person, reservation per booking, and the outbox counter's one UPDATE for the whole batch.
        Assert.Equal((10 * 3) + 1, after - before);
        Assert.Equal(0L, await ScalarAsync("SELECT (SELECT count(*) FROM idempotency) + (SELECT count(*) FROM outbox) + (SELECT count(*) FROM changes)", ct));
        Assert.Equal(10L, await ScalarAsync("""
            SELECT count(DISTINCT event_id) FROM hot_reservations
            WHERE idem_key LIKE 'key-p%' AND fingerprint LIKE 'fp-p%' AND sms_pending = 1 AND flush_pending = 1
            """, ct));
    }

    [Fact]
    public async Task A_replay_of_a_booking_in_a_full_slot_answers_the_booking_not_slot_full()
    {
        var ct = TestContext.Current.CancellationToken;
        await CreateAsync(ct, seats: 1);
        var first = (await Store.ReserveAsync(Command("only"), ct))!.Value;

        var replay = (await Store.ReserveAsync(Command("only") with { NewCode = ConfirmationCode.New() }, ct))!.Value;

        Assert.Equal((ReservationStatus.Reserved, first.Code, true), (replay.Status, replay.Code, replay.Replayed));
        Assert.Null(await Store.ReserveAsync(Command("only") with { Fingerprint = "another body" }, ct));
    }

    [Fact]
    public async Task A_booking_cancelled_before_the_relay_and_the_flush_keeps_its_sms_its_disk_row_and_its_key()
    {
        var ct = TestContext.Current.CancellationToken;
        await CreateAsync(ct);
        var code = (await Store.ReserveAsync(Command("gone"), ct))!.Value.Code!;
        var eventId = await ScalarAsync($"SELECT event_id FROM hot_reservations WHERE code = '{code}'", ct);

        Assert.Equal(CancelStatus.Cancelled, await Store.CancelAsync(new CancelCommand(code, new ContactProof(Phone, null), Now), ct));

        // The confirmation is still to be sent, under the id the relay may already have read, beside the cancel's SMS.
        var unsent = await _services.GetRequiredService<SqliteSmsStore>().ReadUnsentAsync(10, ct);
        Assert.Equal([(eventId, ChangeKind.Reserved), (unsent[1].Id, ChangeKind.Cancelled)], unsent.Select(u => (u.Id, u.Kind)));
        Assert.True(unsent[1].Id > eventId);
        var replay = (await Store.ReserveAsync(Command("gone") with { NewCode = ConfirmationCode.New() }, ct))!.Value;
        Assert.Equal((ReservationStatus.Reserved, code, true), (replay.Status, replay.Code, replay.Replayed));
        // The disk ends cancelled, though the booking's own change came after its cancel's.
        Assert.Equal(2, await Writer.WriteAsync(h => h.FlushChanges(100), ct));
        Assert.Equal(1L, await ScalarAsync($"SELECT count(*) FROM reservations WHERE code = '{code}' AND cancelled_at IS NOT NULL", ct));
        Assert.Equal(0L, await ScalarAsync("SELECT count(*) FROM changes", ct));
    }

    [Fact]
    public async Task The_flush_writes_new_bookings_from_their_hot_rows_once_and_the_relay_sees_their_sms_until_marked()
    {
        var ct = TestContext.Current.CancellationToken;
        await CreateAsync(ct);
        foreach (var i in Enumerable.Range(0, 3))
        {
            await Store.ReserveAsync(Command($"fl{i}"), ct);
        }
        var sms = _services.GetRequiredService<SqliteSmsStore>();

        var unsent = await sms.ReadUnsentAsync(10, ct);
        await sms.MarkSentAsync([unsent[0].Id], 2_000_000, ct);
        Assert.Equal(2, await Writer.WriteAsync(h => h.FlushChanges(2), ct));
        Assert.Equal(1, await Writer.WriteAsync(h => h.FlushChanges(2), ct));
        Assert.Equal(0, await Writer.WriteAsync(h => h.FlushChanges(2), ct));

        Assert.Equal(3, unsent.Count);
        Assert.All(unsent, u => Assert.Equal(ChangeKind.Reserved, u.Kind));
        Assert.Equal(unsent.Skip(1).Select(u => u.Id), (await sms.ReadUnsentAsync(10, ct)).Select(u => u.Id));
        Assert.Equal(3L, await ScalarAsync("SELECT count(*) FROM reservations r JOIN hot_reservations h USING (code) WHERE r.seat_no = h.seat_no", ct));
        Assert.Equal(0L, await ScalarAsync("SELECT count(*) FROM hot_reservations WHERE flush_pending = 1", ct));
    }

    [Fact]
    public async Task Message_ids_stay_distinct_from_the_outbox_s_own_when_both_are_written_in_one_batch_and_one_operation_fails()
    {
        var ct = TestContext.Current.CancellationToken;
        await CreateAsync(ct);
        var earlier = (await Store.ReserveAsync(Command("early"), ct))!.Value.Code!;

        // One batch: a booking, a failing operation that drew ids (rolled back alone), a cancel (an outbox row), two bookings.
        await InOneBatchAsync([
            h => h.Reserve(Command("b1")),
            h =>
            {
                h.Reserve(Command("doomed"));
                throw new InvalidOperationException("rolled back alone");
            },
            h => h.Cancel(new CancelCommand(earlier, new ContactProof(Phone, null), Now)),
            h => h.Reserve(Command("b2")),
            h => h.Reserve(Command("b3")),
        ], ct, tolerateFailures: true);

        var ids = (await _services.GetRequiredService<SqliteSmsStore>().ReadUnsentAsync(100, ct)).Select(u => u.Id).ToList();
        Assert.Equal(5, ids.Count); // early's confirmation and cancel, b1, b2, b3
        Assert.Equal(ids.Count, ids.Distinct().Count());
        Assert.Equal(0L, await ScalarAsync("SELECT count(*) FROM hot_reservations WHERE person_hash = 'doomed'", ct));
    }

    private static ReserveCommand Command(string person) =>
        new(new SlotKey(Place, HotDay, Nine, 1), person, Phone, "Name", "sk", ConfirmationCode.New(), "key-" + person, "fp-" + person, Now);

    private const string Phone = "+421905000001";

    private static long TotalChanges(SqliteHotPath h) => (long)h.Command("SELECT total_changes()").ExecuteScalar()!;

    /// <summary>Runs the operations as one group commit: the writer is held until all are queued.</summary>
    private async Task<object?[]> InOneBatchAsync(IEnumerable<Func<SqliteHotPath, object?>> operations, CancellationToken ct,
        bool tolerateFailures = false)
    {
        using var gate = new ManualResetEventSlim();
        var blocker = Writer.WriteAsync(_ => gate.Wait(TimeSpan.FromSeconds(30)), ct);
        var writes = operations.Select(o => Writer.WriteAsync(o, ct)).ToList();
        gate.Set();
        await blocker;
        var results = new object?[writes.Count];
        for (var i = 0; i < writes.Count; i++)
        {
            try
            {
                results[i] = await writes[i];
            }
            catch (InvalidOperationException) when (tolerateFailures)
            {
                results[i] = null;
            }
        }
        return results;
    }

    private async Task<long> ScalarAsync(string sql, CancellationToken ct)
    {
        await using var connection = new SqliteConnection(_connectionString);
        await connection.OpenAsync(ct);
        await using var command = new SqliteCommand(sql, connection);
        return (long)(await command.ExecuteScalarAsync(ct))!;
    }

    private async Task CreateAsync(CancellationToken ct, int seats = Seats)
    {
        await SqliteSchema.MigrateAsync(_connectionString, ct);
        await using (var connection = new SqliteConnection(_connectionString))
        {
            await connection.OpenAsync(ct);
            await using var insert = connection.CreateCommand();
            insert.CommandText = """
                INSERT INTO places (id, name, address, region, time_zone, hot_until) VALUES (1, 'Site', 'Street 1', 'BA', 'UTC', $horizon);
                INSERT INTO place_services (place_id, service_id, seats) VALUES (1, 1, $seats);
                INSERT INTO slots (place_id, day, start_minute, service_id, minutes, capacity, starts_at)
                VALUES (1, $day, 540, 1, 15, $seats, $starts);
                """;
            insert.Parameters.AddWithValue("$horizon", HotDay.AddDays(28));
            insert.Parameters.AddWithValue("$seats", seats);
            insert.Parameters.AddWithValue("$day", HotDay);
            insert.Parameters.AddWithValue("$starts", new DateTimeOffset(HotDay.ToDateTime(new TimeOnly(9, 0)), TimeSpan.Zero).ToUnixTimeSeconds());
            await insert.ExecuteNonQueryAsync(ct);
        }
        await using var scope = _services.CreateAsyncScope();
        await scope.ServiceProvider.GetRequiredService<HotWindowLoader>().LoadSeatsAsync(Place, HotDay, HotDay, ct);
    }
}
