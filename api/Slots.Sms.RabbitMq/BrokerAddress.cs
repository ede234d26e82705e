using RabbitMQ.Client;

namespace Slots.Sms.RabbitMq;

/// <summary>
/// Where the broker is: ConnectionStrings:RabbitMq, one amqp:// (or amqps://) URI per node of a
/// cluster, separated by commas. Every URI carries the same user, password and virtual host (the
/// cluster's own); the first one supplies them. A connection goes to any node on the list that is
/// up, so a node that dies takes no client with it beyond one reconnect.
/// </summary>
public sealed class BrokerAddress
{
    private static readonly string Setting = $"ConnectionStrings:{SmsOptions.ConnectionStringName}";

    private BrokerAddress(Uri credentials, IReadOnlyList<AmqpTcpEndpoint> endpoints)
    {
        Credentials = credentials;
        Endpoints = endpoints;
    }

    /// <summary>The first URI: user, password, virtual host (and TLS) for every connection.</summary>
    public Uri Credentials { get; }

    /// <summary>The nodes, in the order given; the client tries them in random order.</summary>
    public IReadOnlyList<AmqpTcpEndpoint> Endpoints { get; }

    /// <summary>
    /// Reads the setting, or throws InvalidOperationException naming it and the entry at fault.
    /// The messages show an entry's host and port at most: a URI holds the password.
    /// </summary>
    public static BrokerAddress Parse(string? connectionString)
    {
        var entries = (connectionString ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (entries.Length == 0)
        {
            throw Refused("is empty");
        }
        var uris = new List<Uri>(entries.Length);
        for (var i = 0; i < entries.Length; i++)
        {
            if (!Uri.TryCreate(entries[i], UriKind.Absolute, out var uri) || uri.Scheme is not ("amqp" or "amqps") || uri.Host.Length == 0)
            {
                throw Refused(entries.Length == 1 ? "is not an amqp:// URI" : $"entry {i + 1} of {entries.Length} is not an amqp:// URI");
            }
            uris.Add(uri);
        }
        var first = uris[0];
        foreach (var (uri, i) in uris.Select((u, i) => (u, i)).Skip(1))
        {
            var differs = Differs(first, uri);
            if (differs is not null)
            {
                throw Refused($"entry {i + 1} ({uri.Host}:{Port(uri)}) has a different {differs} from entry 1; every node of the cluster takes the same");
            }
        }
        return new BrokerAddress(first, uris.Select(Endpoint).ToList());
    }

    private static string? Differs(Uri first, Uri other)
    {
        var (user, password) = UserInfo(first);
        var (otherUser, otherPassword) = UserInfo(other);
        return !string.Equals(user, otherUser, StringComparison.Ordinal) ? "user"
            : !string.Equals(password, otherPassword, StringComparison.Ordinal) ? "password"
            : !string.Equals(first.AbsolutePath.TrimEnd('/'), other.AbsolutePath.TrimEnd('/'), StringComparison.Ordinal) ? "virtual host"
            : null;
    }

    private static (string User, string? Password) UserInfo(Uri uri)
    {
        var parts = uri.UserInfo.Split(':', 2);
        return (Uri.UnescapeDataString(parts[0]), parts.Length > 1 ? Uri.UnescapeDataString(parts[1]) : null);
    }

    /// <summary>As the client's own factory reads a URI: amqps turns TLS on, checked against the host's name.</summary>
    private static AmqpTcpEndpoint Endpoint(Uri uri) => uri.Scheme == "amqps"
        ? new AmqpTcpEndpoint(uri.Host, uri.Port, new SslOption(uri.Host, enabled: true))
        : new AmqpTcpEndpoint(uri.Host, uri.Port);

    private static int Port(Uri uri) => uri.Port >= 0 ? uri.Port : uri.Scheme == "amqps" ? 5671 : 5672;

    private static InvalidOperationException Refused(string why) =>
        new($"{SmsOptions.Section}:Transport is RabbitMq, but {Setting} {why} (one amqp:// URI per node, separated by commas).");
}
