using System.Net;
using System.Net.Sockets;
using Slots.Topology.Run;

namespace Slots.Topology.Tests.Run;

public sealed class PortGuardTests
{
    [Fact]
    public void A_busy_port_is_refused_naming_the_part_and_the_port()
    {
        using var holder = new TcpListener(IPAddress.Loopback, 0);
        holder.Start();
        var port = ((IPEndPoint)holder.LocalEndpoint).Port;

        var refused = Assert.Throws<StackStartException>(() => PortGuard.Need([new Port("etcd2-peer", port)]));

        Assert.StartsWith($"etcd2-peer: port {port} is in use by another process", refused.Message, StringComparison.Ordinal);
        Assert.True(PortGuard.Busy(port));
    }

    [Fact]
    public void A_free_port_passes()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        var port = ((IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop();

        Assert.False(PortGuard.Busy(port));
        PortGuard.Need([new Port("api1", port)]);
    }
}
