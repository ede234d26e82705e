using Microsoft.Extensions.DependencyInjection;
using Slots.Testing.Web;

namespace Slots.Api.Tests.Api;

/// <summary>HTTP behaviour that does not depend on the backend, on the embedded default.</summary>
public abstract class ApiTestBase : IAsyncDisposable
{
    private readonly SqliteBackend _backend = new();
    private readonly List<SlotsHost> _hosts = [];

    protected async Task<SlotsHost> StartAsync(IReadOnlyDictionary<string, string?>? extra = null, Action<IServiceCollection>? services = null)
    {
        var settings = await _backend.CreateDatabaseAsync("api" + _hosts.Count, TestContext.Current.CancellationToken);
        var host = new SlotsHost(settings!, extra, services);
        _hosts.Add(host);
        return host;
    }

    public virtual async ValueTask DisposeAsync()
    {
        foreach (var host in _hosts)
        {
            await host.DisposeAsync();
        }
        await _backend.DisposeAsync();
        GC.SuppressFinalize(this);
    }
}
