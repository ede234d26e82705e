namespace Slots.Storage;

public enum StorageProvider
{
    Sqlite,
    Postgres,
    SqlServer,
}

public sealed class StorageOptions
{
    public const string Section = "Slots:Storage";

    /// <summary>sqlite (embedded default), postgres or sqlserver.</summary>
    public StorageProvider Provider { get; set; } = StorageProvider.Sqlite;

    /// <summary>Apply the backend's schema scripts at start.</summary>
    public bool MigrateOnStart { get; set; } = true;

    /// <summary>Most reservations the SQLite writer commits in one transaction.</summary>
    public int MaxBatch { get; set; } = 256;
}
