using System.Diagnostics;
using Microsoft.Data.Sqlite;

namespace Slots.Api.Tests.Api;

/// <summary>The `migrate` argument prepares the database and exits without listening (compose's init service).</summary>
public sealed class MigrateCommandTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("slots-migrate-").FullName;

    private string Database => Path.Combine(_folder, "slots.db");

    public void Dispose()
    {
        SqliteConnection.ClearAllPools();
        Directory.Delete(_folder, recursive: true);
    }

    private async Task MigrateAsync(bool demoData)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = _folder,
        };
        foreach (var arg in new[] { "exec", typeof(Program).Assembly.Location, "migrate" })
        {
            start.ArgumentList.Add(arg);
        }
        start.Environment["ConnectionStrings__Slots"] = $"Data Source={Database}";
        start.Environment["Slots__Storage__Provider"] = "Sqlite";
        start.Environment["Slots__DemoData__WhenEmpty"] = demoData ? "true" : "false";
        start.Environment["Slots__DemoData__Places"] = "2";
        start.Environment["Slots__DemoData__Days"] = "3";
        start.Environment["DOTNET_ENVIRONMENT"] = "Production";
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        using var limit = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        await process.WaitForExitAsync(limit.Token);
        Assert.True(process.ExitCode == 0, $"exit {process.ExitCode}: {await errors}{await output}");
    }

    private async Task<long> CountAsync(string table)
    {
        await using var connection = new SqliteConnection($"Data Source={Database};Pooling=False");
        await connection.OpenAsync();
        await using var count = connection.CreateCommand();
        count.CommandText = $"SELECT COUNT(*) FROM {table}";
        return (long)(await count.ExecuteScalarAsync())!;
    }

    [Fact]
    public async Task Migrate_applies_the_schema_and_exits_with_zero()
    {
        await MigrateAsync(demoData: false);

        Assert.True(await CountAsync("schema_migrations") >= 1);
        Assert.Equal(0L, await CountAsync("places"));   // no demo data unless asked for
    }

    [Fact]
    public async Task Migrate_creates_the_demo_data_once_when_asked_for()
    {
        await MigrateAsync(demoData: true);
        var seats = await CountAsync("hot_seats");
        await MigrateAsync(demoData: true);

        // The three demo days start today on the demo places' clock: 32 slots on a weekday (08:00 to
        // 15:45), 16 on Saturday (to 11:45), none on Sunday. A fixed 2 × 3 × 32 failed whenever the
        // run's three days in Bratislava took in a weekend.
        var today = DateOnly.FromDateTime(TimeZoneInfo.ConvertTime(DateTimeOffset.UtcNow, TimeZoneInfo.FindSystemTimeZoneById("Europe/Bratislava")).DateTime);
        var perPlace = Enumerable.Range(0, 3).Sum(d => today.AddDays(d).DayOfWeek switch
        {
            DayOfWeek.Sunday => 0,
            DayOfWeek.Saturday => 16,
            _ => 32,
        });
        Assert.Equal(2L, await CountAsync("places"));
        Assert.Equal(2L * perPlace, await CountAsync("slots"));
        Assert.True(seats > 0, "the demo days are inside the window and have their seats");
        Assert.Equal(seats, await CountAsync("hot_seats"));
    }
}
