using Microsoft.Extensions.Hosting;
using Slots.Sms.RabbitMq;

namespace Slots.Sms.Tests;

/// <summary>ConnectionStrings:RabbitMq: one amqp:// URI, or one per cluster node separated by commas.</summary>
public sealed class BrokerAddressTests
{
    [Fact]
    public void Single_uri_is_one_endpoint_with_its_credentials()
    {
        var address = BrokerAddress.Parse("amqp://slots:s3cret@rabbit.local:5673/sms");

        var endpoint = Assert.Single(address.Endpoints);
        Assert.Equal(("rabbit.local", 5673, false), (endpoint.HostName, endpoint.Port, endpoint.Ssl.Enabled));
        Assert.Equal("amqp://slots:s3cret@rabbit.local:5673/sms", address.Credentials.ToString());
    }

    [Fact]
    public void Single_uri_without_port_takes_the_default_port()
    {
        var endpoint = Assert.Single(BrokerAddress.Parse("amqp://guest:guest@localhost/").Endpoints);

        Assert.Equal(5672, endpoint.Port);
    }

    [Fact]
    public void Several_uris_are_one_endpoint_per_node_in_order_with_the_first_ones_credentials()
    {
        var address = BrokerAddress.Parse("amqp://guest:guest@127.0.0.1:56740/, amqp://guest:guest@127.0.0.1:56750/,amqp://guest:guest@127.0.0.1:56760/");

        Assert.Equal([56740, 56750, 56760], address.Endpoints.Select(e => e.Port));
        Assert.All(address.Endpoints, e => Assert.Equal("127.0.0.1", e.HostName));
        Assert.Equal(56740, address.Credentials.Port);
    }

    [Fact]
    public void Amqps_entries_turn_tls_on_for_their_host()
    {
        var address = BrokerAddress.Parse("amqps://u:p@node-a.example/,amqps://u:p@node-b.example:5999/");

        Assert.Equal([5671, 5999], address.Endpoints.Select(e => e.Port));
        Assert.All(address.Endpoints, e => Assert.True(e.Ssl.Enabled));
        Assert.Equal(["node-a.example", "node-b.example"], address.Endpoints.Select(e => e.Ssl.ServerName));
    }

    [Fact]
    public void A_trailing_comma_is_ignored()
    {
        Assert.Equal(2, BrokerAddress.Parse("amqp://u:p@a/,amqp://u:p@b/,").Endpoints.Count);
    }

    [Theory]
    [InlineData("amqp://slots:s3cret@a/,amqp://other:s3cret@b/", "entry 2 (b:5672) has a different user")]
    [InlineData("amqp://slots:s3cret@a/,amqp://slots:wrong-s3cret@b:5680/", "entry 2 (b:5680) has a different password")]
    [InlineData("amqp://slots:s3cret@a/,amqp://slots:s3cret@b/,amqp://slots@c/", "entry 3 (c:5672) has a different password")]
    [InlineData("amqp://slots:s3cret@a/sms,amqp://slots:s3cret@b/other", "entry 2 (b:5672) has a different virtual host")]
    public void Mismatched_credentials_are_refused_naming_the_setting_and_the_entry_but_not_the_password(string connectionString, string why)
    {
        var refused = Assert.Throws<InvalidOperationException>(() => BrokerAddress.Parse(connectionString));

        Assert.Contains("ConnectionStrings:RabbitMq", refused.Message, StringComparison.Ordinal);
        Assert.Contains(why, refused.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("s3cret", refused.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("amqp://u:s3cret@a/,http://u:s3cret@b/", "entry 2 of 2 is not an amqp:// URI")]
    [InlineData("amqp://u:s3cret@a/,u:s3cret@b:5672", "entry 2 of 2 is not an amqp:// URI")]
    [InlineData("not a uri with s3cret", "is not an amqp:// URI")]
    [InlineData("amqp:///,amqp://u:s3cret@b/", "entry 1 of 2 is not an amqp:// URI")]
    [InlineData(" , ", "is empty")]
    public void Bad_entry_is_refused_naming_the_setting_and_the_entry_but_not_the_password(string connectionString, string why)
    {
        var refused = Assert.Throws<InvalidOperationException>(() => BrokerAddress.Parse(connectionString));

        Assert.Contains("ConnectionStrings:RabbitMq", refused.Message, StringComparison.Ordinal);
        Assert.Contains(why, refused.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("s3cret", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Registration_refuses_a_bad_list_at_start()
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });

        var refused = Assert.Throws<InvalidOperationException>(() =>
            builder.AddRabbitMqSms("amqp://guest:guest@127.0.0.1:5672/,amqp://guest:other@127.0.0.1:5673/", new SmsOptions()));

        Assert.Contains("ConnectionStrings:RabbitMq entry 2 (127.0.0.1:5673) has a different password", refused.Message, StringComparison.Ordinal);
    }
}
