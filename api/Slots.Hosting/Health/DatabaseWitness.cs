using Microsoft.Extensions.DependencyInjection;
using Slots.Reservations;

namespace Slots.Hosting.Health;

/// <summary>
/// When the database last answered this process: the bookings and reads themselves are the readiness probe's
/// evidence while they flow. In a stampede the probe's own query waited behind them, for the pool and the CPU,
/// past HAProxy's 1 s check timeout, and HAProxy took instances that were answering out of rotation (both at
/// once in one run: every request answered 503 until they came back).
/// </summary>
public sealed class DatabaseWitness(TimeProvider clock)
{
    private long _answeredAt = long.MinValue;

    public void Answered() => Volatile.Write(ref _answeredAt, clock.GetTimestamp());

    /// <summary>Whether the database answered one of this process's requests within <paramref name="span"/>.</summary>
    public bool AnsweredWithin(TimeSpan span)
    {
        var at = Volatile.Read(ref _answeredAt);
        return at != long.MinValue && clock.GetElapsedTime(at) <= span;
    }

    /// <summary>Puts the witness between every caller and the backend's reservation store (registered before this).</summary>
    public static void Witness(IServiceCollection services)
    {
        services.AddSingleton<DatabaseWitness>();
        var backend = services.LastOrDefault(d => d.ServiceType == typeof(IReservationStore));
        if (backend is null)
        {
            return;
        }
        services.Remove(backend);
        services.AddSingleton<IReservationStore>(sp => new WitnessedReservationStore(Resolve(backend, sp), sp.GetRequiredService<DatabaseWitness>()));
    }

    private static IReservationStore Resolve(ServiceDescriptor backend, IServiceProvider sp) =>
        (IReservationStore)(backend.ImplementationInstance
            ?? backend.ImplementationFactory?.Invoke(sp)
            ?? ActivatorUtilities.CreateInstance(sp, backend.ImplementationType!));
}
