using System.Globalization;
using System.Net.Sockets;
using System.Text;
using Microsoft.Extensions.Options;
using Slots.Capacity;

namespace Slots.Api.Http;

/// <summary>
/// HAProxy's agent check (haproxy.cfg: agent-check, agent-port): every connection is answered with one line,
/// "maxconn:N", N being the instance's learnt limit (<see cref="ConcurrencyLimit"/>) plus a little headroom, and
/// closed. HAProxy then sends no more than that many requests at once; the rest wait in its queue, and past its
/// shedding threshold are turned away there with 429, without costing this instance a read, a parse or a thread.
/// A starved instance would otherwise spend its share of the CPU saying no, while the requests it could admit
/// waited behind those it was refusing. The limit stays the instance's own: past two proxies, or with the agent
/// unreachable, the requests over it still hear 429 from <see cref="ConcurrencyLimits"/>.
/// </summary>
internal sealed partial class AdmissionAgent(ConcurrencyLimit limit, IOptions<ConcurrencyLimitOptions> options, ILogger<AdmissionAgent> log)
    : BackgroundService
{
    /// <summary>The line the agent answers now.</summary>
    private string Answer() =>
        string.Create(CultureInfo.InvariantCulture, $"maxconn:{limit.Limit + options.Value.AgentHeadroom}\n");

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (options.Value.AgentEndpoint() is not { } endpoint)
        {
            return;
        }
        using var listener = new TcpListener(endpoint);
        try
        {
            listener.Start();
        }
        catch (SocketException ex)
        {
            // The instance still admits by its own limit; HAProxy keeps its configured maxconn.
            LogNotListening(endpoint.ToString(), ex.SocketErrorCode);
            return;
        }
        while (!stoppingToken.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await listener.AcceptSocketAsync(stoppingToken);
            }
            catch (OperationCanceledException)
            {
                break;
            }
            using (socket)
            {
                try
                {
                    await socket.SendAsync(Encoding.ASCII.GetBytes(Answer()), SocketFlags.None, stoppingToken);
                    socket.Shutdown(SocketShutdown.Both);
                }
                catch (SocketException)
                {
                    // HAProxy gave up on this check; it asks again at the next interval.
                }
            }
        }
    }

    [LoggerMessage(EventId = 1201, Level = LogLevel.Error, Message = "The admission agent cannot listen on {Endpoint} ({Error}); HAProxy keeps its configured maxconn")]
    private partial void LogNotListening(string endpoint, SocketError error);
}
