using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Slots.Sms.Gateway;
using Slots.Sms.Tests.Infrastructure;

namespace Slots.Sms.Tests;

public sealed class HttpGatewaySmsSenderTests
{
    [Fact]
    public async Task Sender_retries_a_briefly_failing_gateway_and_sends_with_the_message_id_as_Idempotency_Key()
    {
        await using var gateway = await FakeGateway.StartAsync();
        using var services = Services(gateway);
        var sender = services.GetRequiredService<SmsSender>();
        gateway.FailNext(2);

        await sender.SendAsync(new OutgoingSms(7, "+421905000001", "Rezervacia potvrdena"), CancellationToken.None);
        await sender.SendAsync(new OutgoingSms(7, "+421905000001", "Rezervacia potvrdena"), CancellationToken.None);

        Assert.Equal(2, gateway.Failures);
        Assert.Equal(["7"], gateway.Delivered.Keys);
        Assert.Equal(1, gateway.Repeats); // the second send carried the same key: the gateway did not deliver it again
    }

    [Fact]
    public async Task Sender_treats_a_4xx_answer_as_a_rejection_for_good()
    {
        await using var gateway = await FakeGateway.StartAsync();
        using var services = Services(gateway);
        gateway.Refuse("8");

        var refused = await Assert.ThrowsAsync<SmsRejectedException>(() =>
            services.GetRequiredService<SmsSender>().SendAsync(new OutgoingSms(8, "+421905000001", "text"), CancellationToken.None));

        Assert.Equal(8, refused.MessageId);
        Assert.DoesNotContain("+421", refused.Message, StringComparison.Ordinal);
        Assert.Equal(1, gateway.Requests); // no retry of a refusal
    }

    private static ServiceProvider Services(FakeGateway gateway)
    {
        var services = new ServiceCollection();
        services.AddHttpClient(HttpGatewaySmsSender.ClientName);
        services.AddSingleton(TimeProvider.System);
        services.AddSingleton(Options.Create(new SmsOptions
        {
            Sender = SmsSenderKind.Http,
            Http = new HttpGatewayOptions { Url = gateway.Url, Retries = 3, RetryDelay = TimeSpan.FromMilliseconds(50) },
        }));
        services.AddSingleton<SmsSender, HttpGatewaySmsSender>();
        return services.BuildServiceProvider();
    }
}
