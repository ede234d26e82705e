using Slots.Reservations;

namespace Slots.Storage.SqlServer;

/// <summary>
/// The cold path on SQL Server: days from a place's stored horizon on, on the disk tables, through
/// the interpreted procs of sql/040-045 (they lock and read the hot tables in one round trip, see
/// docs/sqlserver.md). Each write is one proc call: one round trip, one transaction, with the
/// semantics of <see cref="ColdReservationStore"/> (the SQLite and PostgreSQL cold path).
/// Conflicts on the hot tables the procs touch (41302 and kin), a racer's duplicate key and a
/// disk-side deadlock (1205) are retried like the hot path's conflicts; the memory quota becomes
/// <see cref="StorageCapacityException"/>.
/// </summary>
public sealed class SqlServerColdReservationStore : IColdReservationStore
{
    /// <summary>Deadlock victim: the cold procs take disk locks, so unlike the hot path they can be chosen as one.</summary>
    public const int Deadlock = 1205;

    /// <summary>What cold reserve retries: conflicts, a duplicate key (the retry replays the racer's answer), deadlocks.</summary>
    public static readonly IReadOnlySet<int> ReserveRetryOn =
        new HashSet<int>([.. SqlServerErrors.Conflicts, .. SqlServerErrors.DuplicateKey, Deadlock]);

    /// <summary>What cold cancel and reschedule retry: conflicts and deadlocks.</summary>
    public static readonly IReadOnlySet<int> ChangeRetryOn = new HashSet<int>([.. SqlServerErrors.Conflicts, Deadlock]);

    private readonly ISqlServerColdProcs _procs;
    private readonly SqlServerRetryPolicy _retry;
    private readonly string? _connectionString;

    public SqlServerColdReservationStore(SqlServerConnectionString connectionString, SqlServerRetryPolicy retry)
        : this(new SqlServerColdProcs(connectionString), retry, connectionString.Value)
    {
    }

    private SqlServerColdReservationStore(ISqlServerColdProcs procs, SqlServerRetryPolicy retry, string? connectionString)
    {
        _procs = procs;
        _retry = retry;
        _connectionString = connectionString;
    }

    /// <summary>The store over other procs (tests: a fake that raises error numbers or answers raw outcomes).</summary>
    public static SqlServerColdReservationStore Over(ISqlServerColdProcs procs, SqlServerRetryPolicy retry) => new(procs, retry, null);

    public async Task<Cold<ReserveResult?>> ReserveAsync(ReserveCommand c, CancellationToken ct)
    {
        if (c.Second is not null && _connectionString is not null)
        {
            // A pair: dbo.reserve_pair books the first dose on the side of the window it finds it, and the second with it.
            return new(ColdRoute.Done, await _retry.ExecuteAsync(token => SqlServerPairs.ReserveAsync(_connectionString, c, token), ReserveRetryOn,
                static () => new ReserveResult(ReservationStatus.SlotFull, null), ct));
        }
        var answer = SqlServerColdOutcomes.Reserve(await _retry.ExecuteAsync(
            token => _procs.ReserveAsync(c, token), ReserveRetryOn,
            // After the retries the seat was seen taken each time, as on the hot path.
            static () => new ColdProcAnswer(0, (int)ReservationStatus.SlotFull), ct));
        if (_connectionString is not null && answer.Route == ColdRoute.Done)
        {
            await SqlServerWalkIns.RecordAsync(_connectionString, c, answer.Value, ct);
        }
        return answer;
    }

    public async Task<Cold<CancelStatus>> CancelAsync(CancelCommand c, CancellationToken ct) =>
        SqlServerColdOutcomes.Cancel(await _retry.ExecuteAsync(
            token => _procs.CancelAsync(c, token), ChangeRetryOn, exhausted: null, ct));

    public async Task<Cold<RescheduleStatus>> RescheduleAsync(RescheduleCommand c, CancellationToken ct) =>
        SqlServerColdOutcomes.Reschedule(await _retry.ExecuteAsync(
            token => _procs.RescheduleAsync(c, token), ChangeRetryOn,
            static () => new ColdProcAnswer(0, (int)RescheduleStatus.SlotFull), ct));

    public async Task<bool> WasCancelledAsync(CancelCommand c, CancellationToken ct) =>
        await _retry.ExecuteAsync(async token => await _procs.WasCancelledAsync(c, token), ChangeRetryOn, exhausted: null, ct);

    public Task<ReservationDetails?> FindAsync(string code, CancellationToken ct) => _procs.FindAsync(code, ct);

    public async Task<(DateOnly Horizon, IReadOnlyList<SlotAvailability> Slots)> AvailabilityAsync(
        int placeId, DateOnly from, DateOnly to, CancellationToken ct)
    {
        var (horizon, slots) = await _procs.AvailabilityAsync(placeId, from, to, ct);
        return (horizon ?? default, slots); // an unknown place: default, as the EF Core cold path answers
    }

    public async Task<DateOnly> HorizonAsync(int placeId, CancellationToken ct) =>
        await _procs.HorizonAsync(placeId, ct) ?? default;
}

/// <summary>The cold procs' numbers as the port's values: @route is <see cref="ColdRoute"/>, @outcome the enums' own numbers.</summary>
public static class SqlServerColdOutcomes
{
    public static ColdRoute Route(int route) => route switch
    {
        0 => ColdRoute.Done,
        1 => ColdRoute.NowHot,
        2 => ColdRoute.AcrossWindow,
        _ => throw new InvalidOperationException($"A cold proc answered unknown route {route}."),
    };

    public static Cold<ReserveResult?> Reserve(ColdProcAnswer answer) => Route(answer.Route) switch
    {
        ColdRoute.Done => new(ColdRoute.Done, SqlServerOutcomes.Reserve(answer.Outcome, answer.Code, answer.Replayed)),
        ColdRoute.NowHot => new(ColdRoute.NowHot, null),
        _ => throw new InvalidOperationException("dbo.cold_reserve answered AcrossWindow, which only a reschedule can."),
    };

    public static Cold<CancelStatus> Cancel(ColdProcAnswer answer) => Route(answer.Route) switch
    {
        ColdRoute.Done => new(ColdRoute.Done, SqlServerOutcomes.Cancel(answer.Outcome)),
        ColdRoute.NowHot => new(ColdRoute.NowHot, CancelStatus.NotFound),
        _ => throw new InvalidOperationException("dbo.cold_cancel answered AcrossWindow, which only a reschedule can."),
    };

    public static Cold<RescheduleStatus> Reschedule(ColdProcAnswer answer) => Route(answer.Route) switch
    {
        ColdRoute.Done => new(ColdRoute.Done, SqlServerOutcomes.Reschedule(answer.Outcome)),
        ColdRoute.NowHot => new(ColdRoute.NowHot, RescheduleStatus.NotFound),
        _ => new(ColdRoute.AcrossWindow, RescheduleStatus.UnknownSlot),
    };
}
