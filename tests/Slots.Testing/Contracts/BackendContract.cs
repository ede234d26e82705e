using Microsoft.Extensions.DependencyInjection;
using Slots.Testing.Web;

namespace Slots.Testing.Contracts;

/// <summary>
/// The one setup every contract suite shares: a backend (the class fixture the backend's project
/// names), a fresh database of it per test, and hosts on it that go when the test does. A backend's
/// project runs each suite unchanged through a sealed subclass, so a failing backend names its own
/// project; a backend that cannot run here is skipped with its reason (under CI failed, except SQL Server).
/// </summary>
public abstract class BackendContract<TBackend>(TBackend backend) : IClassFixture<TBackend>, IAsyncDisposable
    where TBackend : class, IBackend
{
    private readonly List<SlotsHost> _hosts = [];

    /// <summary>A fresh, empty database on the backend, its name <paramref name="prefix"/> and a random tail.</summary>
    protected Task<IReadOnlyDictionary<string, string?>> CreateDatabaseAsync(string prefix) =>
        backend.CreateDatabaseAsync(prefix + Guid.NewGuid().ToString("N")[..12], TestContext.Current.CancellationToken);

    /// <summary>A host on <paramref name="database"/>, disposed with the test.</summary>
    protected SlotsHost NewHost(IReadOnlyDictionary<string, string?> database, IReadOnlyDictionary<string, string?>? extra = null,
        Action<IServiceCollection>? services = null)
    {
        var host = new SlotsHost(database, extra, services);
        _hosts.Add(host);
        return host;
    }

    /// <summary>The hosts this test started, in order.</summary>
    protected IReadOnlyList<SlotsHost> Hosts => _hosts;

    public async ValueTask DisposeAsync()
    {
        foreach (var host in _hosts)
        {
            await host.DisposeAsync();
        }
        GC.SuppressFinalize(this);
    }
}
