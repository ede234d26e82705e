using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace Slots.Sms.RabbitMq;

public static class RabbitMqSmsRegistration
{
    /// <summary>
    /// SMS work through RabbitMQ: the relay publishes with confirms, the consumer sends (as a
    /// hosted service), dead letters can be listed and replayed.
    /// </summary>
    public static IHostApplicationBuilder AddRabbitMqSms(this IHostApplicationBuilder builder, string? connectionString, SmsOptions options)
    {
        if (string.IsNullOrWhiteSpace(connectionString) || !Uri.TryCreate(connectionString, UriKind.Absolute, out var uri) || uri.Scheme is not ("amqp" or "amqps"))
        {
            throw new InvalidOperationException(
                $"{SmsOptions.Section}:Transport is RabbitMq, but ConnectionStrings:{SmsOptions.ConnectionStringName} is not an amqp:// URI.");
        }
        var services = builder.Services;
        services.AddSingleton(new SmsBroker(uri, options));
        services.AddSingleton<RabbitMqRelayTransport>();
        services.AddSingleton<IOutboxTransport>(sp => sp.GetRequiredService<RabbitMqRelayTransport>());
        services.AddSingleton<SmsDeadLetters>();
        services.AddHostedService<SmsConsumer>();
        return builder;
    }
}
