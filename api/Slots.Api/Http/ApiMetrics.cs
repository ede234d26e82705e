using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace Slots.Api.Http;

/// <summary>
/// The Slots.Api meter: reservation requests by operation and outcome with their handling time
/// (the hot path as a client sees it, minus the network), requests shed with 429 or 503 by
/// reason, and availability reads. Tags are fixed words (operation, outcome = problem code), never
/// anything a person sent.
/// </summary>
public sealed class ApiMetrics
{
    public const string MeterName = "Slots.Api";

    // From 0.5 ms to 10 s: a hot-path booking takes about a millisecond alone and tens of
    // milliseconds in a stampede's batches; past a few seconds HAProxy would have given up.
    private static readonly double[] DurationBuckets =
        [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

    private readonly Counter<long> _reservations;
    private readonly Histogram<double> _duration;
    private readonly Counter<long> _shed;
    private readonly Counter<long> _availabilityReads;

    public ApiMetrics(IMeterFactory meters)
    {
        var meter = meters.Create(MeterName);
        _reservations = meter.CreateCounter<long>("slots.api.reservations", "{request}",
            "Reservation requests answered, by operation (reserve, find, cancel, reschedule) and outcome (reserved, replayed, or the problem code)");
        _duration = meter.CreateHistogram("slots.api.reservation.duration", "s",
            "Time the API took to answer, from reading the body to the result, by operation and outcome",
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = DurationBuckets });
        _shed = meter.CreateCounter<long>("slots.api.shed", "{request}",
            "Requests the API turned away to protect itself, by status (429, 503) and reason (rate-limited, database-unavailable)");
        _availabilityReads = meter.CreateCounter<long>("slots.api.availability.reads", "{read}",
            "Availability answers served (a week of one place's free seats each)");
    }

    public void Handled(string operation, string outcome, TimeSpan elapsed)
    {
        var tags = new TagList { { "operation", operation }, { "outcome", outcome } };
        _reservations.Add(1, tags);
        _duration.Record(elapsed.TotalSeconds, tags);
    }

    public void Shed(int status, string reason) =>
        _shed.Add(1, new KeyValuePair<string, object?>("status", status), new KeyValuePair<string, object?>("reason", reason));

    public void AvailabilityRead() => _availabilityReads.Add(1);
}
