using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Room;

/// <summary>
/// The waiting-room stampede: one place of its own with one day of seats (tomorrow, 34 times
/// 08:00–16:15 every 15 minutes, so <see cref="Seats"/> is rounded to a multiple of 34), an opening
/// over it a few seconds ahead, and a crowd of arrivals far above the seats.
/// </summary>
public sealed record RoomOptions
{
    /// <summary>Slot times a day: 08:00 to 16:15 every 15 minutes.</summary>
    public const int TimesPerDay = 34;

    public required IReadOnlyList<Uri> Targets { get; init; }
    public required string AdminKey { get; init; }
    public int Seed { get; init; } = 17;
    public string RunId { get; init; } = SimulationOptions.NewRunId();

    /// <summary>Seats on offer: <see cref="TimesPerDay"/> × <see cref="Capacity"/>.</summary>
    public int Capacity { get; init; } = 10;
    public int Seats => TimesPerDay * Capacity;
    public int Arrivals { get; init; } = 20 * 340;
    public TimeSpan ArrivalWindow { get; init; } = TimeSpan.FromSeconds(10);
    public TimeSpan PreQueue { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>The opening's pace; null admits as fast as the seats allow.</summary>
    public double? AdmitPerSecond { get; init; } = 68;
    public int AdmissionSeconds { get; init; } = 15;
    public int AbandonAllowance { get; init; } = 17;

    /// <summary>Share of arrivals that never book once admitted (their admission lapses).</summary>
    public double AbandonShare { get; init; } = 0.05;

    /// <summary>Share of arrivals that join a second time with the same national id.</summary>
    public double RejoinShare { get; init; } = 0.05;
    public int MaxBookingAttempts { get; init; } = 5;
    public TimeSpan TimeLimit { get; init; } = TimeSpan.FromSeconds(120);

    /// <summary>Sampling the opening goes on this long after the last arrival is done: a late admission would show.</summary>
    public TimeSpan Settle { get; init; } = TimeSpan.FromSeconds(3);
    public int MaxInFlight { get; init; } = 1000;
    public TimeSpan RequestTimeout { get; init; } = TimeSpan.FromSeconds(10);
    public TimeSpan MaxJitter { get; init; } = TimeSpan.FromMilliseconds(300);

    /// <summary>How far apart two instances' views of the counter may be (refresh 0.5 s, counter step 1 s): inversions within it are not counted.</summary>
    public TimeSpan OrderSlack { get; init; } = TimeSpan.FromSeconds(1);
    public int Sources { get; init; } = SimulationOptions.MaxSources;

    public static RoomOptions? From(Args args)
    {
        var targets = new List<Uri>();
        foreach (var text in (args.Text("target") ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            if (!Uri.TryCreate(text, UriKind.Absolute, out var uri) || !SimulationOptions.IsLoopback(uri))
            {
                args.Errors.Add($"--target '{text}' is not an http:// or https:// URL on IPv4 loopback (127.x.x.x or localhost); only loopback targets are allowed.");
                continue;
            }
            targets.Add(uri);
        }
        if (targets.Count == 0)
        {
            args.Errors.Add("--target is required: one or more http://127.0.0.1:PORT or https://127.0.0.1:PORT URLs, comma separated.");
        }
        var key = args.Text("admin-key");
        if (key is null or { Length: < 16 })
        {
            args.Errors.Add("--admin-key is required: a staff key with the admin role (at least 16 characters).");
        }
        var seats = args.Whole("seats", 340, TimesPerDay, TimesPerDay * 1000);
        var capacity = Math.Max(1, (int)Math.Round(seats / (double)TimesPerDay));
        var abandon = args.Number("abandon", 0.05, 0, 0.5);
        var rate = args.Number("admit-per-second", capacity * TimesPerDay / 5.0, 0, 100_000);
        var options = new RoomOptions
        {
            Targets = targets,
            AdminKey = key ?? "",
            Seed = args.Whole("seed", 17, 0, int.MaxValue),
            RunId = args.Text("run-id") ?? SimulationOptions.NewRunId(),
            Capacity = capacity,
            Arrivals = args.Whole("arrivals", 20 * capacity * TimesPerDay, 1, 200_000),
            ArrivalWindow = TimeSpan.FromSeconds(args.Number("arrival-seconds", 10, 0, 300)),
            PreQueue = TimeSpan.FromSeconds(args.Whole("pre-queue-seconds", 5, 1, 300)),
            AdmitPerSecond = rate == 0 ? null : Math.Max(0.01, rate),
            AdmissionSeconds = args.Whole("admission-seconds", 15, 1, 3600),
            AbandonAllowance = args.Whole("abandon-allowance", (int)Math.Ceiling(capacity * TimesPerDay * abandon), 0, 1_000_000),
            AbandonShare = abandon,
            RejoinShare = args.Number("rejoin", 0.05, 0, 1),
            MaxBookingAttempts = args.Whole("booking-attempts", 5, 1, 20),
            TimeLimit = TimeSpan.FromSeconds(args.Number("time-limit", 120, 5, 600)),
            Settle = TimeSpan.FromSeconds(args.Number("settle-seconds", 3, 0, 60)),
            MaxInFlight = args.Whole("max-in-flight", 1000, 1, 20_000),
            RequestTimeout = TimeSpan.FromSeconds(args.Number("request-timeout", 10, 0.1, 120)),
            MaxJitter = TimeSpan.FromMilliseconds(args.Number("max-jitter-ms", 300, 0, 10_000)),
            OrderSlack = TimeSpan.FromSeconds(args.Number("order-slack", 1, 0, 30)),
            Sources = args.Whole("sources", SimulationOptions.MaxSources, 1, SimulationOptions.MaxSources),
        };
        if (!SimulationOptions.IsRunId(options.RunId))
        {
            args.Errors.Add("--run-id must be 1 to 8 ASCII letters.");
        }
        if (options.ArrivalWindow + options.PreQueue >= options.TimeLimit)
        {
            args.Errors.Add("--time-limit must leave time after the pre-queue and the arrivals.");
        }
        return options;
    }
}
