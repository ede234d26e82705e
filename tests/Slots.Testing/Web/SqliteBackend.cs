namespace Slots.Testing.Web;

/// <summary>The embedded default: a real SQLite file per database, in a temp folder removed afterwards.</summary>
public sealed class SqliteBackend : IBackend
{
    private readonly string _folder = Directory.CreateTempSubdirectory("slots-sqlite-").FullName;

    public string Name => "sqlite";

    public Task<IReadOnlyDictionary<string, string?>> CreateDatabaseAsync(string name, CancellationToken ct) =>
        Task.FromResult<IReadOnlyDictionary<string, string?>>(new Dictionary<string, string?>
        {
            ["Slots:Storage:Provider"] = "Sqlite",
            ["ConnectionStrings:Slots"] = $"Data Source={Path.Combine(_folder, name + ".db")}",
        });

    public ValueTask DisposeAsync()
    {
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        try
        {
            Directory.Delete(_folder, recursive: true);
        }
        catch (IOException)
        {
            // a file still open by a host being torn down; the OS temp cleaner takes it
        }
        return ValueTask.CompletedTask;
    }
}
