using Slots.Testing;

namespace Slots.Storage.Postgres.Tests;

/// <summary>The run's one PostgreSQL server for tests that use it directly, or the test skipped (under CI failed), saying why.</summary>
internal static class SharedPostgres
{
    public static Task<PostgresServer> OrSkipAsync() => Unavailable.SkipOrFailAsync(PostgresServer.SharedAsync);
}
