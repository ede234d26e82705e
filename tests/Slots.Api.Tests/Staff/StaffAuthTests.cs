using Slots.Testing.Web;

namespace Slots.Api.Tests.Staff;

public sealed class StaffAuthTests : IAsyncDisposable
{
    private readonly SqliteBackend _backend = new();

    // dotnet user-jwts keeps its key in user secrets, which only Development reads; copied into the
    // configuration of any other environment, it would let anyone with that key mint staff tokens.
    [Fact]
    public async Task A_start_outside_development_with_a_development_signing_key_is_refused()
    {
        var settings = (await _backend.CreateDatabaseAsync("devkey", TestContext.Current.CancellationToken))!;
        await using var host = new SlotsHost(settings, new Dictionary<string, string?>
        {
            ["Authentication:Schemes:Bearer:SigningKeys:0:Issuer"] = "dotnet-user-jwts",
            ["Authentication:Schemes:Bearer:SigningKeys:0:Value"] = Convert.ToBase64String(new byte[32]),
        });

        var refused = Assert.ThrowsAny<Exception>(() => host.Client());

        Assert.Contains("development key", (refused.InnerException ?? refused).Message, StringComparison.Ordinal);
    }

    public ValueTask DisposeAsync() => _backend.DisposeAsync();
}
