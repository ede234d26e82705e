using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace Slots.Sms.Gateway;

public static class SmsSenderRegistration
{
    /// <summary>The sender Slots:Sms:Sender names: the HTTP gateway, or the development file sink.</summary>
    public static IHostApplicationBuilder AddSmsSender(this IHostApplicationBuilder builder, SmsOptions options)
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
        return builder;
    }
}
