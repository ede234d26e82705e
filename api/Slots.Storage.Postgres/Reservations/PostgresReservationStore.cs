using System.Data;
using System.Runtime.CompilerServices;
using Npgsql;
using NpgsqlTypes;
using Slots.Reservations;
using Slots.Storage.Ef;

namespace Slots.Storage.Postgres;

/// <summary>
/// The hot path on PostgreSQL. Writes go through the instance's <see cref="PostgresBatcher"/>:
/// many operations per call and commit, decided set-based by slots_apply
/// (Schema/Functions/slots_apply.sql), safe under READ COMMITTED however many API instances
/// run. Reads are single prepared statements on the pooled data source.
/// </summary>
public sealed class PostgresReservationStore(NpgsqlDataSource dataSource, PostgresBatcher batcher) : IReservationStore
{
    public async ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct)
    {
        var applied = await batcher.ReserveAsync(command);
        return applied.Status == 0
            ? null // the key was used before for a different request
            : new ReserveResult((ReservationStatus)applied.Status, applied.Code, applied.Replayed, applied.Minutes, applied.Detail ?? 0,
                applied.Second);
    }

    public async ValueTask<CancelStatus> CancelAsync(CancelCommand command, CancellationToken ct) =>
        (CancelStatus)(await batcher.CancelAsync(command)).Status;

    public async ValueTask<RescheduleStatus> RescheduleAsync(RescheduleCommand command, CancellationToken ct) =>
        (RescheduleStatus)(await batcher.RescheduleAsync(command)).Status;

    public async Task<ReservationDetails?> FindAsync(string code, CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var find = new NpgsqlCommand(Sql.Find, connection);
        find.Parameters.Add(Text(code));
        await find.PrepareAsync(ct);
        await using var row = await find.ExecuteReaderAsync(ct);
        if (!await row.ReadAsync(ct))
        {
            return null;
        }
        var details = StorageRows.Details(row, code);
        return details with { Slot = details.Slot with { ServiceId = row.GetInt32(10) } };
    }

    public async Task<IReadOnlyList<SlotAvailability>> GetAvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var query = new NpgsqlCommand(Sql.Availability, connection);
        query.Parameters.Add(new NpgsqlParameter<int> { NpgsqlDbType = NpgsqlDbType.Integer, TypedValue = placeId });
        query.Parameters.Add(new NpgsqlParameter<DateOnly> { NpgsqlDbType = NpgsqlDbType.Date, TypedValue = from });
        query.Parameters.Add(new NpgsqlParameter<DateOnly> { NpgsqlDbType = NpgsqlDbType.Date, TypedValue = to });
        await query.PrepareAsync(ct);
        await using var row = await query.ExecuteReaderAsync(ct);
        return await StorageRows.AvailabilityAsync(row, placeId, ct);
    }

    public IAsyncEnumerable<SlotAvailability>? EveryPlace(DateOnly from, DateOnly to) => EveryPlaceAsync(from, to, CancellationToken.None);

    private async IAsyncEnumerable<SlotAvailability> EveryPlaceAsync(DateOnly from, DateOnly to, [EnumeratorCancellation] CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var query = new NpgsqlCommand(StorageRows.EveryPlaceSql, connection);
        Range(query, from, to);
        await using var row = await query.ExecuteReaderAsync(ct);
        while (await row.ReadAsync(ct))
        {
            yield return StorageRows.AvailabilityOfAnyPlace(row);
        }
    }

    public IAsyncEnumerable<ChangedSlot>? ChangedDays(DateOnly from, DateOnly to, IReadOnlyList<DayDigest> known) =>
        known.Count == 0 ? EveryDayAsync(from, to, CancellationToken.None) : ChangedDaysAsync(from, to, known, CancellationToken.None);

    /// <summary>
    /// With no digest given (the first publication, or a full read) every day is read, so each day's digest comes from the
    /// same pass over the seats as its slots: each slot's row carries the sum of its seats' hashes, and a day's rows are
    /// answered when the day ends, with the digest <see cref="Sql.DayDigests"/> would give it. One aggregation of the hot
    /// seats instead of two.
    /// </summary>
    private async IAsyncEnumerable<ChangedSlot> EveryDayAsync(DateOnly from, DateOnly to, [EnumeratorCancellation] CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var query = new NpgsqlCommand(Sql.EveryPlaceDigested, connection);
        Range(query, from, to);
        await using var row = await query.ExecuteReaderAsync(ct);
        var day = new List<SlotAvailability>();
        Int128 sum = 0;
        while (await row.ReadAsync(ct))
        {
            var slot = StorageRows.AvailabilityOfAnyPlace(row);
            if (day.Count > 0 && (day[0].Slot.PlaceId, day[0].Slot.Day) != (slot.Slot.PlaceId, slot.Slot.Day))
            {
                foreach (var answered in Answered(day, sum))
                {
                    yield return answered;
                }
                day.Clear();
                sum = 0;
            }
            day.Add(slot);
            sum += (Int128)row.GetDecimal(8);
        }
        foreach (var answered in Answered(day, sum))
        {
            yield return answered;
        }
    }

    /// <summary>A whole day's slots, each with the day's digest.</summary>
    private static ChangedSlot[] Answered(List<SlotAvailability> day, Int128 sum)
    {
        var digest = Digest(sum);
        return [.. day.Select(s => new ChangedSlot(s.Slot.PlaceId, s.Slot.Day, digest, s))];
    }

    /// <summary>A day's digest from the sum of its seats' hashes, as PostgreSQL's numeric remainder and cast take it.</summary>
    internal static long Digest(Int128 sum) => (long)(sum % long.MaxValue);

    /// <summary>
    /// Every place-day's digest first, then the slots of the days whose digests differ from the ones given, in one snapshot
    /// (a read-only repeatable-read transaction): a day's digest always describes the slots read beside it. When more than a
    /// quarter of the days changed (a stampede books everywhere), one stream of every place's slots is cheaper than a
    /// lookup per day, and the days that did not change are skipped as they pass.
    /// </summary>
    private async IAsyncEnumerable<ChangedSlot> ChangedDaysAsync(DateOnly from, DateOnly to, IReadOnlyList<DayDigest> known,
        [EnumeratorCancellation] CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var transaction = await connection.BeginTransactionAsync(IsolationLevel.RepeatableRead, ct);
        var now = new Dictionary<(int PlaceId, DateOnly Day), long>();
        await using (var digests = new NpgsqlCommand(Sql.DayDigests, connection, transaction))
        {
            Range(digests, from, to);
            await using var row = await digests.ExecuteReaderAsync(ct);
            while (await row.ReadAsync(ct))
            {
                now[(row.GetInt32(0), row.GetFieldValue<DateOnly>(1))] = row.GetInt64(2);
            }
        }
        var given = new Dictionary<(int PlaceId, DateOnly Day), long>();
        foreach (var k in known)
        {
            given[(k.PlaceId, k.Day)] = k.Digest;
        }
        var changed = now.Where(d => !given.TryGetValue(d.Key, out var digest) || digest != d.Value).Select(d => d.Key).Order().ToList();
        var gone = given.Keys.Where(k => !now.ContainsKey(k)).Order().ToList();
        var g = 0;
        if (changed.Count > 0)
        {
            var everywhere = changed.Count * 4 > now.Count;
            await using var query = new NpgsqlCommand(everywhere ? StorageRows.EveryPlaceSql : Sql.DaysOf, connection, transaction);
            if (everywhere)
            {
                Range(query, from, to);
            }
            else
            {
                query.Parameters.Add(new NpgsqlParameter<int[]>("places", NpgsqlDbType.Array | NpgsqlDbType.Integer) { TypedValue = [.. changed.Select(c => c.PlaceId)] });
                query.Parameters.Add(new NpgsqlParameter<DateOnly[]>("days", NpgsqlDbType.Array | NpgsqlDbType.Date) { TypedValue = [.. changed.Select(c => c.Day)] });
            }
            var wanted = everywhere ? changed.ToHashSet() : null;
            await using var row = await query.ExecuteReaderAsync(ct);
            while (await row.ReadAsync(ct))
            {
                var slot = StorageRows.AvailabilityOfAnyPlace(row);
                var key = (slot.Slot.PlaceId, slot.Slot.Day);
                if (wanted?.Contains(key) == false)
                {
                    continue;
                }
                // The days that are gone take their places in (place, day) order.
                for (; g < gone.Count && gone[g].CompareTo(key) < 0; g++)
                {
                    yield return new ChangedSlot(gone[g].PlaceId, gone[g].Day, 0, null);
                }
                yield return new ChangedSlot(key.PlaceId, key.Day, now[key], slot);
            }
        }
        for (; g < gone.Count; g++)
        {
            yield return new ChangedSlot(gone[g].PlaceId, gone[g].Day, 0, null);
        }
        await transaction.CommitAsync(ct);
    }

    private static void Range(NpgsqlCommand query, DateOnly from, DateOnly to)
    {
        query.Parameters.Add(new NpgsqlParameter<DateOnly>("from", NpgsqlDbType.Date) { TypedValue = from });
        query.Parameters.Add(new NpgsqlParameter<DateOnly>("to", NpgsqlDbType.Date) { TypedValue = to });
    }

    public async Task<bool> PingAsync(CancellationToken ct)
    {
        // Short on both ends: a readiness probe that hangs is worse than one that says no.
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeout.CancelAfter(PingTimeout);
        await using var connection = await dataSource.OpenConnectionAsync(timeout.Token);
        await using var ping = new NpgsqlCommand("SELECT count(*) FROM schema_migrations", connection) { CommandTimeout = (int)PingTimeout.TotalSeconds };
        return await ping.ExecuteScalarAsync(timeout.Token) is long;
    }

    private static readonly TimeSpan PingTimeout = TimeSpan.FromSeconds(2);

    private static NpgsqlParameter<string> Text(string value) => new() { NpgsqlDbType = NpgsqlDbType.Text, TypedValue = value };

    private static class Sql
    {
        // A day's digest sums a hash of each seat: its slot's start, length and service, its number, and whether it is free.
        // Any seat taken, freed, held, added or cut changes the sum.
        private const string SeatHash =
            "hashint8extended(starts_at * 2048 + minutes, (service_id::bigint * 65536 + seat_no) * 2 + (code IS NULL AND hold = 0)::integer)";

        public const string DayDigests = $"""
            SELECT place_id, day, (sum({SeatHash}) % 9223372036854775807)::bigint
            FROM hot_seats
            WHERE day >= @from AND day <= @to
            GROUP BY place_id, day
            """;

        // StorageRows.EveryPlaceSql's columns and order, then the sum of the slot's seats' hashes (a numeric).
        public const string EveryPlaceDigested = $"""
            SELECT day, start_minute, min(minutes), count(*)::integer, (count(*) FILTER (WHERE code IS NULL AND hold = 0))::integer,
                   min(starts_at), service_id, place_id, sum({SeatHash})
            FROM hot_seats
            WHERE day >= @from AND day <= @to
            GROUP BY place_id, day, start_minute, service_id
            ORDER BY place_id, day, start_minute, service_id
            """;

        // The slots of the place-days named, with the columns of StorageRows.EveryPlaceSql and in its order.
        public const string DaysOf = """
            SELECT h.day, h.start_minute, min(h.minutes), count(*)::integer,
                   (count(*) FILTER (WHERE h.code IS NULL AND h.hold = 0))::integer, min(h.starts_at), h.service_id, h.place_id
            FROM unnest(@places, @days) AS c(place_id, day)
            JOIN hot_seats h ON h.place_id = c.place_id AND h.day = c.day
            GROUP BY h.place_id, h.day, h.start_minute, h.service_id
            ORDER BY h.place_id, h.day, h.start_minute, h.service_id
            """;

        public const string Find = """
            SELECT place_id, day, start_minute, minutes, seat_no, phone, person_hash, name, language, created_at, service_id
            FROM hot_reservations WHERE code = $1
            """;

        // One range read over the primary key (place, day, time, service, seat): every service of the
        // place, each slot its own row (Core picks the service asked for).
        public const string Availability = """
            SELECT day, start_minute, min(minutes), count(*)::integer, (count(*) FILTER (WHERE code IS NULL AND hold = 0))::integer, min(starts_at),
                   service_id
            FROM hot_seats
            WHERE place_id = $1 AND day >= $2 AND day <= $3
            GROUP BY day, start_minute, service_id
            ORDER BY day, start_minute, service_id
            """;
    }
}
