using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;

namespace Slots.Api.Tests.Api;

/// <summary>The privacy page states the server's own retention setting and contact, never a number of its own.</summary>
public sealed class PrivacyTests : ApiTestBase
{
    [Fact]
    public async Task Privacy_answers_the_configured_retention_and_contact_to_anyone()
    {
        var host = await StartAsync(new Dictionary<string, string?>
        {
            ["Slots:Retention:Days"] = "45",
            ["Slots:Privacy:Controller"] = "Úrad verejného zdravotníctva",
            ["Slots:Privacy:ContactEmail"] = "dpo@example.sk",
        });

        var privacy = await host.Client().GetFromJsonAsync<JsonObject>("/api/privacy", TestContext.Current.CancellationToken);

        Assert.Equal(45, privacy!["retentionDays"]!.GetValue<int>());
        Assert.Equal("Úrad verejného zdravotníctva", privacy["controller"]!.GetValue<string>());
        Assert.Equal("dpo@example.sk", privacy["contactEmail"]!.GetValue<string>());
    }

    [Fact]
    public async Task Privacy_answers_the_default_30_days_and_no_contact_when_none_is_configured()
    {
        var host = await StartAsync();

        var response = await host.Client().GetAsync("/api/privacy", TestContext.Current.CancellationToken);
        var privacy = await response.Content.ReadFromJsonAsync<JsonObject>(TestContext.Current.CancellationToken);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(30, privacy!["retentionDays"]!.GetValue<int>());
        Assert.Null(privacy["contactEmail"]);
        Assert.Null(privacy["controller"]);
    }

    [Fact]
    public async Task A_contact_that_is_no_email_address_refuses_the_start_naming_the_setting()
    {
        var host = await StartAsync(new Dictionary<string, string?> { ["Slots:Privacy:ContactEmail"] = "write to us" });

        var refused = Assert.ThrowsAny<Exception>(() => host.Client());

        Assert.Contains("Slots:Privacy:ContactEmail", (refused.InnerException ?? refused).ToString(), StringComparison.Ordinal);
    }
}
