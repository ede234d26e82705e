using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace Slots.Api.Http;

/// <summary>
/// The Slots.Api meter: reservation requests by operation and outcome with their handling time
/// (the hot path as a client sees it, minus the network), requests shed with 429 or 503 by
/// reason, the booking path's adaptive concurrency limit, and availability reads with their handling
/// time (kept: the bytes of an earlier answer; built: read and serialized). Tags are fixed words
/// (operation, outcome = problem code), never anything a person sent.
/// </summary>
public sealed class ApiMetrics
{
    public const string MeterName = "Slots.Api";

    // A bound every millisecond from 1 to 100 ms, so a p99 read from the buckets is exact to the
    // millisecond where the targets are (100 ms admitted, 10 ms turned away); coarser below (a lone
    // booking takes about a millisecond) and above, up to 10 s, past which HAProxy has given up.
    // About 120 buckets a series: a few kB more per scrape, and a binary search per recording.
    internal static readonly double[] DurationBuckets =
    [
        0.0001, 0.00025, 0.0005,
        .. Enumerable.Range(1, 100).Select(ms => ms / 1000.0),
        0.125, 0.15, 0.175, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1, 1.5, 2, 2.5, 5, 10,
    ];

    private readonly Counter<long> _reservations;
    private readonly Histogram<double> _duration;
    private readonly Counter<long> _shed;
    private readonly Counter<long> _availabilityReads;
    private readonly Histogram<double> _availabilityDuration;
    private readonly Meter _meter;

    public ApiMetrics(IMeterFactory meters)
    {
        var meter = _meter = meters.Create(MeterName);
        _reservations = meter.CreateCounter<long>("slots.api.reservations", "{request}",
            "Reservation requests answered, by operation (reserve, find, cancel, reschedule) and outcome (reserved, replayed, or the problem code)");
        _duration = meter.CreateHistogram("slots.api.reservation.duration", "s",
            "Time the API took to answer, from reading the body to the result, by operation and outcome",
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = DurationBuckets });
        _shed = meter.CreateCounter<long>("slots.api.shed", "{request}",
            "Requests the API turned away to protect itself, by status (429, 503) and reason (rate-limited, database-unavailable)");
        _availabilityReads = meter.CreateCounter<long>("slots.api.availability.reads", "{read}",
            "Availability answers served (a week of one place's free seats each)");
        _availabilityDuration = meter.CreateHistogram("slots.api.availability.duration", "s",
            "Time the API took to answer an availability read, by outcome (kept: an earlier answer's bytes; built: read and serialized)",
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = DurationBuckets });
    }

    public void Handled(string operation, string outcome, TimeSpan elapsed)
    {
        var tags = new TagList { { "operation", operation }, { "outcome", outcome } };
        _reservations.Add(1, tags);
        _duration.Record(elapsed.TotalSeconds, tags);
    }

    public void Shed(int status, string reason) =>
        _shed.Add(1, new KeyValuePair<string, object?>("status", status), new KeyValuePair<string, object?>("reason", reason));

    /// <summary>An availability answer served: kept (an earlier answer's bytes, unchanged since) or built.</summary>
    public void AvailabilityAnswered(bool kept, TimeSpan elapsed)
    {
        _availabilityReads.Add(1);
        _availabilityDuration.Record(elapsed.TotalSeconds, new TagList { { "operation", "availability" }, { "outcome", kept ? "kept" : "built" } });
    }

    /// <summary>The booking path's adaptive limit as it moves (its rejections are <c>slots.api.shed</c> with reason overloaded).</summary>
    public void Observe(Capacity.ConcurrencyLimit limit)
    {
        _meter.CreateObservableGauge("slots.api.concurrency.limit", () => limit.Limit, "{request}",
            "Requests the booking path admits in flight now, learnt from their latency (Slots:ConcurrencyLimit)");
        _meter.CreateObservableGauge("slots.api.concurrency.in_flight", () => limit.InFlight, "{request}",
            "Requests admitted on the booking path and not yet answered");
    }
}
