using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace Slots.Sms.RabbitMq;

public static class RabbitMqSmsRegistration
{
    /// <summary>
    /// SMS work through RabbitMQ: the relay publishes with confirms, the consumer sends (as a
    /// hosted service), dead letters can be listed and replayed. The connection string names one
    /// node, or every node of a cluster (comma-separated amqp:// URIs).
    /// </summary>
    public static IHostApplicationBuilder AddRabbitMqSms(this IHostApplicationBuilder builder, string? connectionString, SmsOptions options)
    {
        // Refused here, at start, rather than at the first connect: a wrong list is a deployment mistake.
        var address = BrokerAddress.Parse(connectionString);
        var services = builder.Services;
        services.AddSingleton(new SmsBroker(address, options));
        services.AddSingleton<RabbitMqRelayTransport>();
        services.AddSingleton<IOutboxTransport>(sp => sp.GetRequiredService<RabbitMqRelayTransport>());
        services.AddSingleton<SmsDeadLetters>();
        services.AddHostedService<SmsConsumer>();
        return builder;
    }
}
