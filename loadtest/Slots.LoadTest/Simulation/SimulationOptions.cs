using System.Net;

namespace Slots.LoadTest.Simulation;

/// <summary>Which endpoint takes the reservation POST: the real hot path, the EF Core baseline, or the no-op ceiling.</summary>
public enum Endpoint
{
    Reserve,
    Baseline,
    Noop,
}

/// <summary>spa: read availability, pick a free slot, reserve (the booking page). reserve: go straight for a slot (throughput runs).</summary>
public enum Flow
{
    Spa,
    Reserve,
}

/// <summary>open: users arrive on the curve whatever the server does. closed: a fixed number of users, each starting the next when done.</summary>
public enum Mode
{
    Open,
    Closed,
}

public sealed record SimulationOptions
{
    public const int MaxSources = 253;

    public required IReadOnlyList<Uri> Targets { get; init; }
    public string Scenario { get; init; } = "reserve";
    public Endpoint Endpoint { get; init; } = Endpoint.Reserve;
    public Flow Flow { get; init; } = Flow.Spa;
    public Mode Mode { get; init; } = Mode.Open;
    public int Seed { get; init; } = 7;
    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(20);

    /// <summary>
    /// A closed crowd's unmeasured warm-up of the same shape before the measured run: JIT tiers,
    /// connections, pools and prepared statements ready on both sides. Zero: none.
    /// </summary>
    public TimeSpan Prime { get; init; } = TimeSpan.Zero;
    public ArrivalCurve Arrivals { get; init; } = new(50, TimeSpan.FromSeconds(5), 500);
    public int MaxInFlight { get; init; } = 512;
    public long MaxUsers { get; init; } = 1_000_000;
    public TimeSpan GiveUp { get; init; } = TimeSpan.FromSeconds(30);
    public TimeSpan RequestTimeout { get; init; } = TimeSpan.FromSeconds(10);
    public TimeSpan MaxJitter { get; init; } = TimeSpan.FromMilliseconds(1000);
    public int Sources { get; init; } = MaxSources;
    public int HotPlaces { get; init; } = 5;
    public int HotDays { get; init; } = 3;
    public double HotShare { get; init; } = 0.8;
    public int MaxBookingAttempts { get; init; } = 3;
    public int MaxPlaces { get; init; } = 2000;

    /// <summary>
    /// Where set, each person's national id is a valid birth number from this spread (--birth-years FIRST-LAST,
    /// --eligible-share), for a service opened by age; else the run's letters and the person's number.
    /// </summary>
    public BirthNumbers? BirthNumbers { get; init; }

    /// <summary>
    /// Where set (--invitations PATH: an issued batch's CSV, as the admin API answers it), person k brings code k
    /// (modulo the count), for a service that admits invitation holders.
    /// </summary>
    public IReadOnlyList<string>? Invitations { get; init; }

    /// <summary>Letters that make this run's national ids and idempotency keys its own, so runs on one database do not meet.</summary>
    public string RunId { get; init; } = NewRunId();

    /// <summary>1 to 8 ASCII letters: a run's id goes into keys, names and national ids.</summary>
    public static bool IsRunId(string id) => id.Length is >= 1 and <= 8 && id.All(char.IsAsciiLetter);

    public static string NewRunId()
    {
        Span<char> id = stackalloc char[6];
        var n = DateTime.UtcNow.Ticks / TimeSpan.TicksPerMillisecond;
        for (var i = 0; i < id.Length; i++, n /= 26)
        {
            id[i] = (char)('A' + (n % 26));
        }
        return new string(id);
    }

    /// <summary>Loopback only: a load generator must never be pointed at someone else's server by a typo.</summary>
    public static bool IsLoopback(Uri target) =>
        (target.Scheme == Uri.UriSchemeHttp || target.Scheme == Uri.UriSchemeHttps) &&
        (target.IsLoopback && (target.HostNameType == UriHostNameType.Dns
            ? target.Host.Equals("localhost", StringComparison.OrdinalIgnoreCase)
            : IPAddress.TryParse(target.Host, out var ip) && IPAddress.IsLoopback(ip) && ip.AddressFamily == System.Net.Sockets.AddressFamily.InterNetwork));

    public static SimulationOptions? From(Args args)
    {
        var targets = new List<Uri>();
        foreach (var text in (args.Text("target") ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            if (!Uri.TryCreate(text, UriKind.Absolute, out var uri) || !IsLoopback(uri))
            {
                args.Errors.Add($"--target '{text}' is not an http:// or https:// URL on IPv4 loopback (127.x.x.x or localhost); only loopback targets are allowed.");
                continue;
            }
            targets.Add(uri);
        }
        if (targets.Count == 0)
        {
            args.Errors.Add("--target is required: one or more http://127.0.0.1:PORT (an API instance) or https://127.0.0.1:PORT (the stack's HAProxy) URLs, comma separated.");
        }
        var warmupRate = args.Number("warmup-rate", 20, 0, 100_000);
        var stepRate = args.Number("step-rate", 0, 0, 1_000_000);
        if (stepRate == 0)
        {
            // or as the issue puts it: a step to N× capacity
            stepRate = args.Number("capacity", 100, 0.1, 1_000_000) * args.Number("step-factor", 20, 0.1, 1000);
        }
        var options = new SimulationOptions
        {
            Targets = targets,
            Scenario = args.Text("scenario", "reserve")!,
            Endpoint = args.Enum("endpoint", Endpoint.Reserve),
            Flow = args.Enum("flow", Flow.Spa),
            Mode = args.Enum("mode", Mode.Open),
            Seed = args.Whole("seed", 7, 0, int.MaxValue),
            Duration = TimeSpan.FromSeconds(args.Number("duration", 20, 1, 600)),
            Prime = TimeSpan.FromSeconds(args.Number("prime-seconds", 0, 0, 120)),
            Arrivals = new ArrivalCurve(warmupRate, TimeSpan.FromSeconds(args.Number("warmup-seconds", 5, 0, 600)), stepRate),
            MaxInFlight = args.Whole("max-in-flight", 512, 1, 20_000),
            MaxUsers = (long)args.Number("max-users", 1_000_000, 1, 20_000_000),
            GiveUp = TimeSpan.FromSeconds(args.Number("give-up", 30, 1, 300)),
            RequestTimeout = TimeSpan.FromSeconds(args.Number("request-timeout", 10, 0.1, 120)),
            MaxJitter = TimeSpan.FromMilliseconds(args.Number("max-jitter-ms", 1000, 0, 10_000)),
            Sources = args.Whole("sources", MaxSources, 1, MaxSources),
            HotPlaces = args.Whole("hot-places", 5, 1, 1000),
            HotDays = args.Whole("hot-days", 3, 1, 30),
            HotShare = args.Number("hot-share", 0.8, 0, 1),
            MaxBookingAttempts = args.Whole("booking-attempts", 3, 1, 10),
            MaxPlaces = args.Whole("max-places", 2000, 1, 100_000),
            RunId = args.Text("run-id") ?? NewRunId(),
            BirthNumbers = BirthSpread(args),
            Invitations = InvitationCodes(args),
        };
        if (options.Prime > TimeSpan.Zero && options.Mode != Mode.Closed)
        {
            args.Errors.Add("--prime-seconds is for closed crowds (--mode closed); an open run warms up on its arrival curve.");
        }
        if (options.BirthNumbers is { } spread && options.MaxUsers > spread.Capacity)
        {
            args.Errors.Add($"--birth-years numbers {spread.Capacity} people, fewer than --max-users.");
        }
        if (!IsRunId(options.RunId))
        {
            args.Errors.Add("--run-id must be 1 to 8 ASCII letters.");
        }
        return options;
    }

    /// <summary>--invitations PATH: the codes of an issued batch's CSV (its first column, after the header); null when not asked for.</summary>
    private static List<string>? InvitationCodes(Args args)
    {
        if (args.Text("invitations") is not { } path)
        {
            return null;
        }
        if (!File.Exists(path))
        {
            args.Errors.Add($"--invitations: no file {path}.");
            return null;
        }
        var codes = File.ReadLines(path).Skip(1).Select(line => line.Split(',')[0].Trim()).Where(code => code.Length > 0).ToList();
        if (codes.Count == 0)
        {
            args.Errors.Add("--invitations: the file holds no codes.");
        }
        return codes;
    }

    /// <summary>--birth-years 1954-1963 and --eligible-share (default 1): the crowd's birth numbers; null when not asked for.</summary>
    private static BirthNumbers? BirthSpread(Args args)
    {
        if (args.Text("birth-years") is not { } years)
        {
            return null;
        }
        var parts = years.Split('-');
        if (parts.Length != 2 || !int.TryParse(parts[0], System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var first)
            || !int.TryParse(parts[1], System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var last) || first < 1954 || last < first || last > 2053)
        {
            args.Errors.Add("--birth-years is FIRST-LAST, years from 1954 to 2053 (ten-digit birth numbers).");
            return null;
        }
        return new BirthNumbers(first, last, args.Number("eligible-share", 1, 0, 1), args.Whole("seed", 7, 0, int.MaxValue));
    }
}
