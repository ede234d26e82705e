using System.Net;
using Slots.Testing.Web;

namespace Slots.Api.Tests.Api;

/// <summary>
/// The test host against the API's entry point, which runs the host on a thread of its own: a refused start tells the
/// test why and a started one listens where the test asks, whichever side reaches the start first.
/// </summary>
public sealed class HostStartRaceTests
{
    [Theory]
    [InlineData(0)]
    [InlineData(1_500)]   // the entry point refuses and disposes the host before the factory's start looks at it
    public async Task A_refused_start_throws_the_refusal_naming_the_setting(int pauseMs)
    {
        await using var backend = new SqliteBackend();
        var settings = await backend.CreateDatabaseAsync("refused", TestContext.Current.CancellationToken);
        await using var host = new SlotsHost(settings!, new Dictionary<string, string?> { ["Slots:Retention:Days"] = "0" })
        {
            PauseBeforeStart = TimeSpan.FromMilliseconds(pauseMs),
        };

        var refused = Assert.ThrowsAny<Exception>(() => host.Client());

        Assert.Contains("Slots:Retention:Days must be 1..3650", refused.ToString(), StringComparison.Ordinal);
        Assert.IsNotType<ObjectDisposedException>(refused);
    }

    [Fact]
    public async Task A_host_the_factory_starts_late_listens_on_a_loopback_port_of_its_own()
    {
        await using var backend = new SqliteBackend();
        var settings = await backend.CreateDatabaseAsync("late", TestContext.Current.CancellationToken);
        await using var host = new SlotsHost(settings!) { PauseBeforeStart = TimeSpan.FromMilliseconds(1_500) };

        var client = host.Client();
        var live = await client.GetAsync("/health/live", TestContext.Current.CancellationToken);

        Assert.Equal(HttpStatusCode.OK, live.StatusCode);
        Assert.Equal("127.0.0.1", client.BaseAddress!.Host);
        Assert.NotEqual(5000, client.BaseAddress.Port);   // Kestrel's default, taken when the port was set after the run began
    }
}
