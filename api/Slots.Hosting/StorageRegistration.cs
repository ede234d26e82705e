using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Slots.Storage;
using Slots.Storage.Postgres;
using Slots.Storage.Sqlite;
using Slots.Storage.SqlServer;

namespace Slots.Hosting;

public static class StorageRegistration
{
    /// <summary>
    /// The backend named by Slots:Storage:Provider, with every adapter it brings. The one place
    /// that chooses a backend: everything registered later asks <see cref="StorageBackend.Of"/>.
    /// </summary>
    public static IHostApplicationBuilder AddSlotsStorage(this IHostApplicationBuilder builder)
    {
        var options = builder.Configuration.GetSection(StorageOptions.Section).Get<StorageOptions>() ?? new StorageOptions();
        StorageBackend backend = options.Provider switch
        {
            StorageProvider.Sqlite => new SqliteBackend(),
            StorageProvider.Postgres => new PostgresBackend(),
            StorageProvider.SqlServer => new SqlServerBackend(),
            _ => throw new InvalidOperationException(
                $"Unknown storage provider '{options.Provider}'; use Sqlite, Postgres or SqlServer."),
        };
        builder.Services.AddSingleton(Options.Create(options));
        builder.Services.AddSingleton(backend);
        builder.Properties[typeof(StorageBackend)] = backend;
        backend.Register(builder, options);
        return builder;
    }
}
