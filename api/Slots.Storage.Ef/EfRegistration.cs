using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Catalogue;
using Slots.Idempotency;
using Slots.MachineKeys;
using Slots.Reminders;
using Slots.Reservations;
using Slots.Retention;
using Slots.Scheduling;
using Slots.Storage.Ef.Reminders;
using Slots.Storage.Ef.Retention;
using Slots.Window;

namespace Slots.Storage.Ef;

public static class EfRegistration
{
    /// <summary>
    /// The cold side through EF Core for a backend with <typeparamref name="TDialect"/>: the
    /// context, the catalogue, the cold path, the window mover and sync, the idempotency purge,
    /// the job log, the personal data's erasure, a person's own view and erasure of it, and the machine keys.
    /// </summary>
    public static IServiceCollection AddEfColdSide<TDialect>(this IServiceCollection services, string connectionString)
        where TDialect : EfDialect
    {
        services.AddSingleton<TDialect>();
        services.AddSingleton<EfDialect>(sp => sp.GetRequiredService<TDialect>());
        // Pooled: a scope takes a context that is already built. Built afresh, each one made its options and its own scope
        // of EF Core's services again, a fifth of the API's CPU at the door's check-in (docs/benchmarks.md).
        services.AddDbContextPool<SlotsDbContext>((sp, db) => sp.GetRequiredService<EfDialect>().UseProvider(db, connectionString));
        services.AddScoped<ICatalogStore, EfCatalogStore>();
        services.AddScoped<Slots.Eligibility.IInvitationStore, Slots.Storage.Ef.Eligibility.EfInvitationStore>();
        services.AddSingleton<IColdReservationStore, EfColdReservationStore>();
        services.AddSingleton<IDosePairStore, Slots.Storage.Ef.Reservations.EfDosePairStore>();
        services.AddScoped<HotWindowLoader>();
        services.AddScoped<EfWindowMover>();
        services.AddScoped<IWindowSync, EfWindowSync>();
        services.AddScoped<IIdempotencyPurge, EfIdempotencyPurge>();
        services.AddScoped<IJobRunLog, EfJobRunLog>();
        services.AddSingleton<IReminderStore, EfReminderStore>();
        services.AddScoped<IPersonalDataEraser, EfPersonalDataEraser>();
        services.AddScoped<IPersonalDataStore, EfPersonalDataStore>();
        services.AddSingleton<IWrongProofStore, Slots.Storage.Ef.Reservations.EfWrongProofStore>();
        services.AddSingleton<IMachineKeyStore, Slots.Storage.Ef.MachineKeys.EfMachineKeyStore>();
        return services;
    }
}
