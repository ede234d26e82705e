namespace Slots.Storage;

/// <summary>Applies the backend's schema scripts.</summary>
public interface ISchemaMigrator
{
    Task MigrateAsync(CancellationToken ct);
}
