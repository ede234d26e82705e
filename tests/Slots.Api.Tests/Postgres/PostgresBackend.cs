using Slots.Api.Tests.Contract;
using Slots.Api.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Api.Tests.Postgres;

/// <summary>PostgreSQL: a fresh database per host on the run's one shared server.</summary>
public sealed class PostgresBackend : IBackend
{
    public string Name => "postgres";

    public async Task<IReadOnlyDictionary<string, string?>> CreateDatabaseAsync(string name, CancellationToken ct)
    {
        var server = await Unavailable.SkipOrFailAsync(PostgresServer.SharedAsync);
        return new Dictionary<string, string?>
        {
            ["Slots:Storage:Provider"] = "Postgres",
            ["ConnectionStrings:Slots"] = await server.CreateDatabaseAsync(name, ct),
        };
    }

    // The server outlives every fixture; it stops when the test process exits.
    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}

public sealed class PostgresReservationContract(PostgresBackend b) : ReservationContract<PostgresBackend>(b);

public sealed class PostgresWrongProofContract(PostgresBackend b) : WrongProofContract<PostgresBackend>(b);

public sealed class PostgresStaffContract(PostgresBackend b) : Slots.Api.Tests.Staff.StaffContract<PostgresBackend>(b);
public sealed class PostgresMachineKeyContract(PostgresBackend b) : Slots.Api.Tests.Staff.MachineKeyContract<PostgresBackend>(b);
public sealed class PostgresBlockCancelContract(PostgresBackend b) : Slots.Api.Tests.Staff.BlockCancelContract<PostgresBackend>(b);
public sealed class PostgresReminderContract(PostgresBackend b) : Slots.Api.Tests.Reminders.ReminderContract<PostgresBackend>(b);
public sealed class PostgresWaitingListContract(PostgresBackend b) : Slots.Api.Tests.WaitingList.WaitingListContract<PostgresBackend>(b);
