using System.Reflection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Slots.Sms;

namespace Slots.Architecture.Tests;

/// <summary>
/// Core holds the domain and its ports, no adapter: the SMS senders (the HTTP gateway, the file
/// sink) live in Slots.Sms.Gateway and the health probes in Slots.Hosting, beside the hosts.
/// </summary>
public sealed class CoreAdapterTests
{
    private static readonly Assembly Core = typeof(Slots.Reservations.ReservationService).Assembly;

    /// <summary>What only an adapter needs: an HTTP client factory, a resilience library, health checks.</summary>
    private static readonly string[] AdapterAssemblies =
    [
        "Microsoft.Extensions.Http", "Polly", "Microsoft.Extensions.Diagnostics.HealthChecks", "Microsoft.AspNetCore.Diagnostics.HealthChecks",
    ];

    [Fact]
    public void Core_declares_no_concrete_sms_sender() =>
        Assert.Empty(Core.GetTypes().Where(t => typeof(SmsSender).IsAssignableFrom(t) && !t.IsAbstract).Select(t => t.FullName));

    [Fact]
    public void Core_declares_no_health_check() =>
        Assert.Empty(Core.GetTypes().Where(t => typeof(IHealthCheck).IsAssignableFrom(t)).Select(t => t.FullName));

    [Fact]
    public void Core_assembly_references_no_http_client_resilience_or_health_check_assembly()
    {
        var referenced = Core.GetReferencedAssemblies().Select(a => a.Name!);
        Assert.DoesNotContain(referenced, a => AdapterAssemblies.Any(p => a.StartsWith(p, StringComparison.Ordinal)));
    }

    [Fact]
    public void Core_project_asks_for_no_resilience_package() =>
        Assert.DoesNotContain(DependencyTests.PackageReferences("api/Slots.Core"), p => p.StartsWith("Polly", StringComparison.Ordinal));

    [Fact]
    public void The_senders_and_the_probes_live_in_their_adapter_projects()
    {
        var senders = Assembly.Load("Slots.Sms.Gateway").GetTypes().Where(t => typeof(SmsSender).IsAssignableFrom(t) && !t.IsAbstract).Select(t => t.Name);
        Assert.Equal(["FileSmsSender", "HttpGatewaySmsSender"], senders.Order());
        Assert.Contains(Assembly.Load("Slots.Hosting").GetTypes(), t => typeof(IHealthCheck).IsAssignableFrom(t));
    }
}
