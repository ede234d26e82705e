using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace Slots.Sms;

public static class SmsRelayRegistration
{
    /// <summary>
    /// The transport-independent half of SMS: the outbox relay (run it with RelayOutboxJob) and the
    /// delivery with its rate and metrics. The sender adapter (Slots.Sms.Gateway), the transport
    /// (direct, or a broker) and the backend's ISmsStore are registered by the caller.
    /// </summary>
    public static SmsOptions AddSmsRelay(this IHostApplicationBuilder builder)
    {
        var options = builder.Configuration.GetSection(SmsOptions.Section).Get<SmsOptions>() ?? new SmsOptions();
        if (options.MaxTries < 1 || options.RelayBatchSize < 1 || options.MessagesPerSecond < 1)
        {
            throw new InvalidOperationException($"{SmsOptions.Section}: MaxTries, RelayBatchSize and MessagesPerSecond must be at least 1.");
        }
        if (options.QueueAhead < TimeSpan.Zero)
        {
            throw new InvalidOperationException($"{SmsOptions.Section}:QueueAhead must not be negative (zero: no limit).");
        }
        var services = builder.Services;
        services.AddSingleton(Options.Create(options));
        services.AddSingleton<SmsMetrics>();
        services.AddSingleton<SmsRate>();
        services.AddSingleton<SmsDelivery>();
        services.AddSingleton<OutboxRelay>();
        services.AddTransient<RelayOutboxJob>();
        return options;
    }

    /// <summary>No broker: the relay hands each message straight to the sender.</summary>
    public static void AddDirectSmsTransport(this IHostApplicationBuilder builder) =>
        builder.Services.AddSingleton<IOutboxTransport, DirectRelayTransport>();
}
