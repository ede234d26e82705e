using Slots.Testing;

namespace Slots.Api.Tests.Postgres;

/// <summary>The run's one PostgreSQL server for tests that use it directly, or the test skipped, saying why.</summary>
internal static class SharedPostgres
{
    public static async Task<PostgresServer> OrSkipAsync()
    {
        try
        {
            return await PostgresServer.SharedAsync();
        }
        catch (PostgresUnavailableException ex)
        {
            Assert.Skip(ex.Message);
            throw;
        }
    }
}
