using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Slots.Admission;
using Slots.Catalogue;
using Slots.Eligibility;
using Slots.Persons;
using Slots.Places;
using Slots.Reminders;
using Slots.Reservations;
using Slots.Retention;
using Slots.Staff;
using Slots.WaitingList;
using Slots.Window;

namespace Slots;

/// <summary>Registrations shared by the API and the scheduler host.</summary>
public static class DomainRegistration
{
    /// <summary>The domain: reservations, places, catalogue, window, persons, waiting rooms. Backend-independent.</summary>
    public static IHostApplicationBuilder AddSlotsDomain(this IHostApplicationBuilder builder)
    {
        builder.Services.AddOptions<PersonOptions>().BindConfiguration(PersonOptions.Section)
            .Validate(o => string.IsNullOrEmpty(o.PreviousHmacSecret) || o.PreviousUntil is not null,
                $"Configuration '{PersonOptions.Section}:PreviousUntil' must say until when '{PersonOptions.Section}:PreviousHmacSecret' is tried.")
            .ValidateOnStart();
        builder.Services.AddOptions<WindowOptions>().BindConfiguration(WindowOptions.Section)
            .Validate(o => o.Days is >= 1 and <= 366, $"{WindowOptions.Section}:Days must be 1..366");
        builder.Services.AddOptions<ReservationOptions>().BindConfiguration(ReservationOptions.Section);
        builder.Services.AddSingleton(TimeProvider.System);
        builder.Services.AddSingleton<PersonIdentity>();
        builder.Services.AddOptions<InvitationOptions>().BindConfiguration(InvitationOptions.Section)
            .Validate(o => string.IsNullOrEmpty(o.HmacSecret) || o.HmacSecret.Length >= 16,
                $"Configuration '{InvitationOptions.Section}:HmacSecret' must hold at least 16 characters, or nothing when no invitations are issued.")
            .Validate(o => o.MaxBatchSize is >= 1 and <= 1_000_000, $"{InvitationOptions.Section}:MaxBatchSize must be 1..1000000")
            .ValidateOnStart();
        builder.Services.AddSingleton<InvitationKey>();
        builder.Services.AddScoped<InvitationBatches>();
        builder.Services.AddSingleton<PlaceDirectory>();
        builder.Services.AddSingleton<ServiceDirectory>();
        builder.Services.AddSingleton<AvailabilitySnapshot>();
        builder.Services.AddSingleton<ReservationService>();
        builder.Services.AddOptions<WrongProofOptions>().BindConfiguration(WrongProofOptions.Section)
            .Validate(o => o.Valid(), $"{WrongProofOptions.Section}: Limit must be 1..1000 and Window 1 s..7 days")
            .ValidateOnStart();
        builder.Services.AddSingleton<WrongProofs>();
        builder.Services.AddOptions<CheckInOptions>().BindConfiguration(CheckInOptions.Section);
        builder.Services.AddOptions<BlockCancelOptions>().BindConfiguration(BlockCancelOptions.Section);
        builder.Services.AddScoped<StaffService>();
        builder.Services.AddSingleton<BlockCancels>();
        builder.Services.AddOptions<ReminderOptions>().BindConfiguration(ReminderOptions.Section);
        builder.Services.AddSingleton<ReminderMetrics>();
        builder.Services.AddSingleton<DayBeforeReminders>();
        builder.Services.AddOptions<WaitingListOptions>().BindConfiguration(WaitingListOptions.Section);
        builder.Services.AddSingleton<WaitingListMetrics>();
        builder.Services.AddSingleton<WaitingListService>();
        builder.Services.AddSingleton<StaffMetrics>();
        builder.Services.AddOptions<RetentionOptions>().BindConfiguration(RetentionOptions.Section)
            .Validate(o => o.Days is >= 1 and <= 3650, $"{RetentionOptions.Section}:Days must be 1..3650")
            .Validate(o => o.Every >= TimeSpan.FromSeconds(1), $"{RetentionOptions.Section}:Every must be at least 1 s")
            .ValidateOnStart();
        builder.Services.AddScoped<PersonalDataRetention>();
        builder.Services.AddScoped<PersonalDataRequests>();
        builder.AddAdmission();
        builder.Services.AddScoped<PlaceCatalog>();
        builder.Services.AddScoped<PlaceClosing>();
        builder.Services.AddScoped<PlaceCapacity>();
        builder.Services.AddScoped<SlotGenerator>();
        builder.Services.AddScoped<ServiceCatalog>();
        builder.Services.AddScoped<DemoData>();
        return builder;
    }

    /// <summary>
    /// The waiting room. Its signing key has a development default only in Development and the test
    /// fixtures (environment Testing); anywhere else a host that issues tokens refuses to start without one.
    /// </summary>
    private static void AddAdmission(this IHostApplicationBuilder builder)
    {
        var developmentKey = builder.Environment.IsDevelopment() || builder.Environment.IsEnvironment("Testing");
        builder.Services.AddOptions<AdmissionOptions>().BindConfiguration(AdmissionOptions.Section)
            .PostConfigure(o =>
            {
                if (developmentKey && string.IsNullOrEmpty(o.SigningKey))
                {
                    o.SigningKey = AdmissionOptions.DevelopmentKey;
                }
            })
            .Validate(o => o.ViewRefresh >= TimeSpan.FromMilliseconds(50) && o.ViewRefresh <= TimeSpan.FromSeconds(5),
                $"{AdmissionOptions.Section}:ViewRefresh must be 50 ms..5 s")
            .Validate(o => o.AdvanceEvery >= TimeSpan.FromMilliseconds(100), $"{AdmissionOptions.Section}:AdvanceEvery must be at least 100 ms");
        builder.Services.AddMetrics();
        builder.Services.AddSingleton<AdmissionMetrics>();
        builder.Services.AddSingleton<AdmissionTokens>();
        builder.Services.AddSingleton<AdmissionView>();
        builder.Services.AddSingleton<JoinBatcher>();
        builder.Services.AddSingleton<AdmissionService>();
        builder.Services.AddSingleton<ServingCounter>();
    }
}
