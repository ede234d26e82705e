using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Npgsql;
using Slots.Storage.Ef;

namespace Slots.Storage.Postgres.Tests;

/// <summary>What the backend's registration gives the hot path's data source and EF Core's contexts (no server needed).</summary>
public sealed class PostgresRegistrationTests
{
    [Fact]
    public async Task Both_pools_prepare_a_statement_run_again_unless_the_connection_string_says_otherwise()
    {
        await using (var host = Host("Host=127.0.0.1;Database=slots;Username=slots"))
        {
            Assert.Equal(Slots.Storage.Postgres.PostgresBackend.DefaultMaxAutoPrepare, Settings(host.GetRequiredService<NpgsqlDataSource>().ConnectionString).MaxAutoPrepare);
            await using var scope = host.CreateAsyncScope();
            var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
            Assert.Equal(Slots.Storage.Postgres.PostgresBackend.DefaultMaxAutoPrepare, Settings(db.Database.GetConnectionString()!).MaxAutoPrepare);
        }
        await using (var host = Host("Host=127.0.0.1;Database=slots;Username=slots;Max Auto Prepare=0"))
        {
            Assert.Equal(0, Settings(host.GetRequiredService<NpgsqlDataSource>().ConnectionString).MaxAutoPrepare);
        }
    }

    [Fact]
    public async Task The_benchmarks_plain_connection_prepares_nothing_and_keeps_the_rest()
    {
        await using var host = Host("Host=127.0.0.1;Database=slots;Username=slots;Command Timeout=7");
        await using var scope = host.CreateAsyncScope();
        var product = scope.ServiceProvider.GetRequiredService<SlotsDbContext>().Database.GetConnectionString()!;
        var plain = Settings(host.GetRequiredService<EfDialect>().PlainConnectionString(product));
        Assert.Equal(0, plain.MaxAutoPrepare);
        Assert.Equal(7, plain.CommandTimeout);
        Assert.Equal(Settings(product).MaxPoolSize, plain.MaxPoolSize);
        Assert.Equal("slots", plain.Database);
    }

    [Fact]
    public async Task A_scope_takes_a_pooled_context_that_an_earlier_scope_gave_back()
    {
        await using var host = Host("Host=127.0.0.1;Database=slots;Username=slots");
        SlotsDbContext first;
        await using (var scope = host.CreateAsyncScope())
        {
            first = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        }
        await using (var scope = host.CreateAsyncScope())
        {
            Assert.Same(first, scope.ServiceProvider.GetRequiredService<SlotsDbContext>());
        }
    }

    private static ServiceProvider Host(string connectionString)
    {
        var builder = new HostApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Configuration["ConnectionStrings:Slots"] = connectionString;
        new Slots.Storage.Postgres.PostgresBackend().Register(builder, new StorageOptions { Provider = StorageProvider.Postgres });
        return builder.Services.BuildServiceProvider();
    }

    private static NpgsqlConnectionStringBuilder Settings(string connectionString) => new(connectionString);
}
