using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Slots.Catalogue;
using Slots.Persons;
using Slots.Places;
using Slots.Reservations;
using Slots.Window;

namespace Slots;

/// <summary>Registrations shared by the API and the scheduler host.</summary>
public static class DomainRegistration
{
    /// <summary>The domain: reservations, places, catalogue, window, persons. Backend-independent.</summary>
    public static IHostApplicationBuilder AddSlotsDomain(this IHostApplicationBuilder builder)
    {
        builder.Services.AddOptions<PersonOptions>().BindConfiguration(PersonOptions.Section);
        builder.Services.AddOptions<WindowOptions>().BindConfiguration(WindowOptions.Section)
            .Validate(o => o.Days is >= 1 and <= 366, $"{WindowOptions.Section}:Days must be 1..366");
        builder.Services.AddOptions<ReservationOptions>().BindConfiguration(ReservationOptions.Section);
        builder.Services.AddSingleton(TimeProvider.System);
        builder.Services.AddSingleton<PersonIdentity>();
        builder.Services.AddSingleton<PlaceDirectory>();
        builder.Services.AddSingleton<AvailabilitySnapshot>();
        builder.Services.AddSingleton<ReservationService>();
        builder.Services.AddScoped<PlaceCatalog>();
        builder.Services.AddScoped<SlotGenerator>();
        builder.Services.AddScoped<DemoData>();
        return builder;
    }
}
