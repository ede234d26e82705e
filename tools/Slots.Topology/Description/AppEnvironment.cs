using System.Globalization;

namespace Slots.Topology;

/// <summary>The configuration every .NET host of the stack gets (appsettings keys, ':' written as '__'):
/// ASPNETCORE_ for the API, DOTNET_ for the generic-host scheduler.</summary>
public static class AppEnvironment
{
    /// <summary>The single stack's connection string; the HA one lists both HAProxy nodes.</summary>
    public static string Database(StackOptions options) => options.Shape == Shape.Ha
        // Npgsql marks an unreachable host offline for Host Recheck Seconds (10 by default): both were
        // unreachable while no node was primary, so the hosts would wait 10 s after a promotion. 1 s follows it.
        ? string.Create(CultureInfo.InvariantCulture,
            $"Host=127.0.0.1:{options.Ports.Postgres},127.0.0.1:{options.Ports.Postgres2};Host Recheck Seconds=1;Database=slots;Username=postgres")
        : string.Create(CultureInfo.InvariantCulture, $"Host=127.0.0.1;Port={options.Ports.Postgres};Database=slots;Username=postgres");

    /// <summary>The broker's URI; on the HA stack all three nodes, comma-separated.</summary>
    public static string Amqp(StackOptions options) => options.Shape == Shape.Ha
        ? string.Join(",", Enumerable.Range(1, 3).Select(n => Uri(options.Ports.RabbitAmqp(n))))
        : Uri(options.Ports.Amqp);

    /// <summary>What every host gets (with the HA stack's connections there).</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> Common(StackOptions options)
    {
        var profile = options.App.ToString();
        return
        [
            new("ASPNETCORE_ENVIRONMENT", profile),
            new("DOTNET_ENVIRONMENT", profile),
            new("DOTNET_NOLOGO", "1"),
            new("Slots__Storage__Provider", "Postgres"),
            new("ConnectionStrings__Slots", Database(options)),
            new("ConnectionStrings__RabbitMq", Amqp(options)),
            new("Slots__TrustedProxies__0", "127.0.0.1"),
            // UTC timestamps on every log line, so a part's log can be laid beside the chaos soak's faults.
            new("Logging__Console__FormatterName", "simple"),
            new("Logging__Console__FormatterOptions__UseUtcTimestamp", "true"),
            new("Logging__Console__FormatterOptions__TimestampFormat", "yyyy-MM-ddTHH:mm:ss.fffZ "),
        ];
    }

    /// <summary>API instance i.</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> Api(StackOptions options, int i)
    {
        var name = string.Create(CultureInfo.InvariantCulture, $"api{i}");
        return
        [
            .. Common(options),
            new("ASPNETCORE_URLS", Http(options.Ports.Api(i))),
            new("Slots__ConcurrencyLimit__Agent", HaproxyEnvironment.Loopback(options.Ports.ApiAgent(i))),
            new("ConnectionStrings__Slots", $"{Database(options)};Application Name={name}"),
            .. Settings(options),
        ];
    }

    /// <summary>Scheduler node n: its own instance id (job_runs.instance) and SMS sink file, so two nodes never
    /// append to one file.</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> Scheduler(StackOptions options, int n)
    {
        var name = SchedulerName(n);
        return
        [
            .. Common(options),
            new("ASPNETCORE_URLS", Http(options.Ports.Scheduler(n))),
            new("Slots__Scheduler__InstanceId", name),
            new("Slots__Sms__File__Path", Path.Combine(options.StateDir, "sms", $"{name}.jsonl")),
            new("ConnectionStrings__Slots", $"{Database(options)};Application Name={name}"),
            .. Settings(options),
        ];
    }

    public static string SchedulerName(int n) =>
        n == 1 ? "scheduler" : string.Create(CultureInfo.InvariantCulture, $"scheduler{n}");

    private static IEnumerable<KeyValuePair<string, string>> Settings(StackOptions options) =>
        options.AppSettings
            .OrderBy(p => p.Key, StringComparer.Ordinal)
            .Select(p => new KeyValuePair<string, string>(p.Key.Replace(":", "__", StringComparison.Ordinal), p.Value));

    private static string Uri(int port) => string.Create(CultureInfo.InvariantCulture, $"amqp://guest:guest@127.0.0.1:{port}/");

    private static string Http(int port) => string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port}");
}
