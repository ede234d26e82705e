using System.Diagnostics;
using Microsoft.Data.Sqlite;

namespace Slots.Api.Tests.Api;

/// <summary>The `migrate` argument applies the schema and exits without listening (compose's init service).</summary>
public sealed class MigrateCommandTests
{
    [Fact]
    public async Task Migrate_applies_the_schema_and_exits_with_zero()
    {
        var folder = Directory.CreateTempSubdirectory("slots-migrate-").FullName;
        try
        {
            var database = Path.Combine(folder, "slots.db");
            var start = new ProcessStartInfo("dotnet")
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                WorkingDirectory = folder,
            };
            foreach (var arg in new[] { "exec", typeof(Program).Assembly.Location, "migrate" })
            {
                start.ArgumentList.Add(arg);
            }
            start.Environment["ConnectionStrings__Slots"] = $"Data Source={database}";
            start.Environment["Slots__Storage__Provider"] = "Sqlite";
            start.Environment["DOTNET_ENVIRONMENT"] = "Production";
            using var process = Process.Start(start)!;
            var output = process.StandardOutput.ReadToEndAsync();
            var errors = process.StandardError.ReadToEndAsync();
            using var limit = new CancellationTokenSource(TimeSpan.FromSeconds(60));
            await process.WaitForExitAsync(limit.Token);

            Assert.True(process.ExitCode == 0, $"exit {process.ExitCode}: {await errors}{await output}");
            await using var connection = new SqliteConnection($"Data Source={database};Pooling=False");
            await connection.OpenAsync();
            await using var count = connection.CreateCommand();
            count.CommandText = "SELECT COUNT(*) FROM schema_migrations";
            Assert.True((long)(await count.ExecuteScalarAsync())! >= 1);
            count.CommandText = "SELECT COUNT(*) FROM places";
            Assert.Equal(0L, (long)(await count.ExecuteScalarAsync())!);   // schema only: no window, no demo data
        }
        finally
        {
            SqliteConnection.ClearAllPools();
            Directory.Delete(folder, recursive: true);
        }
    }
}
