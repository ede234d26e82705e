using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Slots.Sms;
using Slots.Sms.Gateway;
using Slots.Sms.RabbitMq;

namespace Slots.Hosting;

public static class SmsRegistration
{
    /// <summary>
    /// SMS wherever the jobs run: the outbox relay, the sender Slots:Sms:Sender names, and the transport that
    /// Slots:Sms:Transport names (Auto: RabbitMQ when ConnectionStrings:RabbitMq is set, else
    /// straight to the sender). The connection string is one amqp:// URI, or one per node of a
    /// cluster separated by commas (BrokerAddress reads it, refusing a bad one at start). The
    /// backend's ISmsStore comes with AddSlotsStorage.
    /// </summary>
    public static IHostApplicationBuilder AddSlotsSms(this IHostApplicationBuilder builder)
    {
        var options = builder.AddSmsRelay();
        builder.AddSmsSender(options);
        var rabbit = builder.Configuration.GetConnectionString(SmsOptions.ConnectionStringName);
        var transport = options.Transport == SmsTransport.Auto
            ? (string.IsNullOrWhiteSpace(rabbit) ? SmsTransport.Direct : SmsTransport.RabbitMq)
            : options.Transport;
        if (transport == SmsTransport.RabbitMq)
        {
            builder.AddRabbitMqSms(rabbit, options);
        }
        else
        {
            builder.AddDirectSmsTransport();
        }
        return builder;
    }
}
