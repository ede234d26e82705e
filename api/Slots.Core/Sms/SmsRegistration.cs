using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Slots.Sms.Storage;
using Slots.Storage;

namespace Slots.Sms;

public static class SmsRegistration
{
    /// <summary>
    /// SMS for the scheduler host: the outbox relay (run it with RelayOutboxJob), and with RabbitMQ
    /// the SMS consumer as a hosted service and the dead-letter tools. Needs AddSlotsStorage first.
    /// </summary>
    public static IHostApplicationBuilder AddSlotsSms(this IHostApplicationBuilder builder)
    {
        var options = builder.Configuration.GetSection(SmsOptions.Section).Get<SmsOptions>() ?? new SmsOptions();
        var rabbit = builder.Configuration.GetConnectionString(SmsOptions.ConnectionStringName);
        var transport = options.Transport == SmsTransport.Auto
            ? (string.IsNullOrWhiteSpace(rabbit) ? SmsTransport.Direct : SmsTransport.RabbitMq)
            : options.Transport;
        if (options.MaxTries < 1 || options.RelayBatchSize < 1 || options.MessagesPerSecond < 1)
        {
            throw new InvalidOperationException($"{SmsOptions.Section}: MaxTries, RelayBatchSize and MessagesPerSecond must be at least 1.");
        }
        var services = builder.Services;
        services.AddSingleton(Options.Create(options));
        services.AddSingleton<SmsMetrics>();
        services.AddSingleton<SmsRate>();
        services.AddSingleton<SmsDelivery>();
        services.AddSingleton<OutboxRelay>();
        services.AddTransient<RelayOutboxJob>();
        AddStore(builder);
        AddSender(builder, options);

        if (transport == SmsTransport.RabbitMq)
        {
            if (string.IsNullOrWhiteSpace(rabbit) || !Uri.TryCreate(rabbit, UriKind.Absolute, out var uri) || uri.Scheme is not ("amqp" or "amqps"))
            {
                throw new InvalidOperationException(
                    $"{SmsOptions.Section}:Transport is RabbitMq, but ConnectionStrings:{SmsOptions.ConnectionStringName} is not an amqp:// URI.");
            }
            services.AddSingleton(new SmsBroker(uri, options));
            services.AddSingleton<RabbitMqRelayTransport>();
            services.AddSingleton<IOutboxTransport>(sp => sp.GetRequiredService<RabbitMqRelayTransport>());
            services.AddSingleton<SmsDeadLetters>();
            services.AddHostedService<SmsConsumer>();
        }
        else
        {
            services.AddSingleton<IOutboxTransport, DirectRelayTransport>();
        }
        return builder;
    }

    private static void AddStore(IHostApplicationBuilder builder)
    {
        var storage = builder.Configuration.GetSection(StorageOptions.Section).Get<StorageOptions>() ?? new StorageOptions();
        switch (storage.Provider)
        {
            case StorageProvider.Sqlite:
                builder.Services.AddSingleton<ISmsStore, SqliteSmsStore>();
                break;
            case StorageProvider.Postgres:
                builder.Services.AddSingleton<ISmsStore, PostgresSmsStore>();
                break;
            case StorageProvider.SqlServer:
                builder.Services.AddSingleton<ISmsStore, SqlServerSmsStore>();
                break;
        }
    }

    private static void AddSender(IHostApplicationBuilder builder, SmsOptions options)
    {
        if (options.Sender == SmsSenderKind.Http)
        {
            // Polly inside the sender does timeouts; the client's own timeout is only the outer bound.
            builder.Services.AddHttpClient(HttpGatewaySmsSender.ClientName, client => client.Timeout = Timeout.InfiniteTimeSpan);
            builder.Services.AddSingleton<SmsSender, HttpGatewaySmsSender>();
        }
        else
        {
            builder.Services.AddSingleton<SmsSender, FileSmsSender>();
        }
    }
}
