namespace Slots.Testing.Web;

/// <summary>A storage backend the contract suite runs against.</summary>
public interface IBackend : IAsyncDisposable
{
    string Name { get; }

    /// <summary>
    /// Configuration overrides for a host on a fresh, empty database. Where the backend is unavailable the
    /// test is skipped with the reason (SQL Server without SLOTS_SQLSERVER), or skipped, under CI failed,
    /// where its server cannot start (Slots.Testing's Unavailable).
    /// </summary>
    Task<IReadOnlyDictionary<string, string?>> CreateDatabaseAsync(string name, CancellationToken ct);
}
