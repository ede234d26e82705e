using System.Net;
using System.Net.Sockets;

namespace Slots.Topology.Run;

/// <summary>Refuses to start a part on a port another process already holds, naming the part and the port, so a
/// stack beside another one fails at once instead of waiting for a health check that another server answers.</summary>
public static class PortGuard
{
    /// <summary>Something accepts connections on 127.0.0.1:<paramref name="port"/>.</summary>
    public static bool Busy(int port)
    {
        using var client = new TcpClient();
        try
        {
            client.Connect(IPAddress.Loopback, port);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    public static string Message(Port port) =>
        $"{port.Label}: port {port.Number} is in use by another process; set the matching SLOTS_*_PORT.";

    /// <summary>Throws <see cref="StackStartException"/> for the first of <paramref name="ports"/> that is busy.</summary>
    public static void Need(IEnumerable<Port> ports)
    {
        foreach (var port in ports)
        {
            if (Busy(port.Number))
            {
                throw new StackStartException(Message(port));
            }
        }
    }
}
