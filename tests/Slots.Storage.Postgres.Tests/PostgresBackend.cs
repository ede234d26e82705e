using Slots.Testing;
using Slots.Testing.Web;

namespace Slots.Storage.Postgres.Tests;

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
