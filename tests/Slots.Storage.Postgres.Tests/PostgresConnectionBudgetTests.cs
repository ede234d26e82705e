using Microsoft.Extensions.Logging.Abstractions;
using Npgsql;
using Slots.Storage.Postgres;

namespace Slots.Storage.Postgres.Tests;

/// <summary>The start-up check that the Slots processes' pools fit the server's max_connections (the test server allows 500).</summary>
public sealed class PostgresConnectionBudgetTests
{
    [Fact]
    public async Task A_process_whose_pools_cannot_fit_max_connections_refuses_to_start_and_names_the_numbers()
    {
        await using var dataSource = await DataSourceAsync(maxPoolSize: 100);
        var budget = Budget(dataSource);

        var refused = await Assert.ThrowsAsync<InvalidOperationException>(() => budget.StartingAsync(TestContext.Current.CancellationToken));

        Assert.Contains("max_connections 500", refused.Message, StringComparison.Ordinal);
        Assert.Contains("Maximum Pool Size 100", refused.Message, StringComparison.Ordinal);
        Assert.Contains("need 810", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_process_whose_pools_fit_starts()
    {
        await using var dataSource = await DataSourceAsync(maxPoolSize: 20);
        var budget = Budget(dataSource);

        await budget.StartingAsync(TestContext.Current.CancellationToken);
    }

    [Theory]
    [InlineData(100, 3, 20, 2, 10, true)]    // 2 × 2 × 20 + 10 = 90 of 97
    [InlineData(100, 3, 20, 3, 10, false)]   // 130 of 97
    [InlineData(400, 3, 100, 2, 10, false)]  // the benchmark's old pool: 410 of 397
    public void The_budget_counts_two_pools_per_process_and_the_headroom(int max, int reserved, int pool, int processes, int headroom, bool fits) =>
        Assert.Equal(fits, PostgresConnectionBudget.Check(max, reserved, pool, new ConnectionBudgetOptions { Processes = processes, Headroom = headroom }).Fits);

    /// <summary>A data source with the given pool on a database of the shared test server (max_connections 500).</summary>
    private static async Task<NpgsqlDataSource> DataSourceAsync(int maxPoolSize)
    {
        var server = await SharedPostgres.OrSkipAsync();
        var connectionString = await server.CreateDatabaseAsync("budget" + Guid.NewGuid().ToString("N")[..12], TestContext.Current.CancellationToken);
        return NpgsqlDataSource.Create(new NpgsqlConnectionStringBuilder(connectionString) { MaxPoolSize = maxPoolSize }.ConnectionString);
    }

    private static PostgresConnectionBudget Budget(NpgsqlDataSource dataSource) =>
        new(dataSource, new ConnectionBudgetOptions { Processes = 4, Headroom = 10 }, NullLogger<PostgresConnectionBudget>.Instance);
}
