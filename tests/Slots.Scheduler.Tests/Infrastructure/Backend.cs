using Slots.Testing;

namespace Slots.Scheduler.Tests.Infrastructure;

/// <summary>A fresh database per test: a SQLite file in a temp folder, or a database on the run's shared PostgreSQL server.</summary>
public static class Backend
{
    public static TheoryData<string> All => ["sqlite", "postgres"];

    private static readonly string SqliteFolder = CreateSqliteFolder();

    /// <summary>Configuration for a fresh database; skips the test (under CI fails it) when the backend cannot run here.</summary>
    public static async Task<Dictionary<string, string?>> CreateAsync(string backend)
    {
        var name = "sched" + Guid.NewGuid().ToString("N")[..12];
        if (backend == "sqlite")
        {
            return new()
            {
                ["Slots:Storage:Provider"] = "Sqlite",
                ["ConnectionStrings:Slots"] = $"Data Source={Path.Combine(SqliteFolder, name + ".db")}",
            };
        }
        PostgresServer server;
        try
        {
            server = await PostgresServer.SharedAsync();
        }
        catch (PostgresUnavailableException ex)
        {
            throw Unavailable.Because(ex.Message);
        }
        return new()
        {
            ["Slots:Storage:Provider"] = "Postgres",
            ["ConnectionStrings:Slots"] = await server.CreateDatabaseAsync(name, CancellationToken.None),
        };
    }

    private static string CreateSqliteFolder()
    {
        var folder = Directory.CreateTempSubdirectory("slots-sched-").FullName;
        AppDomain.CurrentDomain.ProcessExit += (_, _) =>
        {
            Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
            try
            {
                Directory.Delete(folder, recursive: true);
            }
            catch (IOException)
            {
                // a file still open at exit; the OS temp cleaner takes it
            }
        };
        return folder;
    }
}
