using Microsoft.Extensions.Hosting;
using Quartz;

namespace Slots.Storage;

/// <summary>
/// One database backend: it registers every port the domain needs (hot and cold reservations,
/// catalogue, window sync, idempotency purge, SMS store, job log, schema migrator) and says how
/// the scheduler keeps its state there. The backend is chosen once, from Slots:Storage:Provider,
/// by Slots.Hosting's AddSlotsStorage; nothing else asks which backend is running.
/// </summary>
public abstract class StorageBackend
{
    /// <summary>The provider this backend answers to.</summary>
    public abstract StorageProvider Provider { get; }

    /// <summary>
    /// True when one process owns the database (the embedded SQLite file): the API runs the
    /// scheduler's jobs itself, and Quartz keeps its state in memory.
    /// </summary>
    public abstract bool Embedded { get; }

    /// <summary>Registers the backend's adapters for every port.</summary>
    public abstract void Register(IHostApplicationBuilder builder, StorageOptions options);

    /// <summary>
    /// Points Quartz's clustered job store at this database, whose migrator created Quartz's
    /// tables. Only asked of a backend that is not <see cref="Embedded"/>.
    /// </summary>
    public virtual void UseJobStore(IPersistentStoreBuilder store, string connectionString) =>
        throw new NotSupportedException($"The {Provider} backend keeps no clustered job store.");

    /// <summary>The backend chosen for this host; set by AddSlotsStorage, read by what registers after it.</summary>
    public static StorageBackend Of(IHostApplicationBuilder builder) =>
        builder.Properties.TryGetValue(typeof(StorageBackend), out var backend) && backend is StorageBackend chosen
            ? chosen
            : throw new InvalidOperationException("Call AddSlotsStorage before registering what depends on the storage backend.");
}
