using System.Collections.Concurrent;
using System.Diagnostics;

namespace Slots.LoadTest.Simulation;

/// <summary>How a virtual user's visit ended.</summary>
public enum UserOutcome
{
    Booked,
    AlreadyBooked,
    SlotFull,
    NoFreeSeat,
    GaveUp,
    Rejected,
    CutOff,
}

/// <summary>A 201 the simulator was given: the audit checks each one is in the database, at that slot.</summary>
public sealed record Confirmation(string Code, int PlaceId, string Day, string Time, double AtSeconds);

/// <summary>Everything the virtual users saw, collected from many threads; latencies from Stopwatch timestamps.</summary>
public sealed class Recorder
{
    private readonly long _start = Stopwatch.GetTimestamp();
    // By (operation, status) rather than by its "operation status" text: a throughput run records tens of thousands of
    // answers a second, and the generator's CPU is taken from the server it measures on a shared machine.
    private readonly ConcurrentDictionary<(string Operation, int Status), Samples> _latencies = new();
    private readonly ConcurrentDictionary<string, long> _errors = new(StringComparer.Ordinal);
    private readonly long[] _outcomes = new long[Enum.GetValues<UserOutcome>().Length];
    private readonly ConcurrentQueue<Confirmation> _confirmations = new();
    private long? _finishedAt;
    private long _started;
    private long _notStarted;

    public double SecondsSinceStart => Stopwatch.GetElapsedTime(_start).TotalSeconds;

    /// <summary>Time since the start; once <see cref="Finish"/> was called, the time of the finish.</summary>
    public TimeSpan Elapsed => _finishedAt is { } end ? Stopwatch.GetElapsedTime(_start, end) : Stopwatch.GetElapsedTime(_start);

    /// <summary>The crowd is gone: rates are per second of the run, not of the run plus the audit after it.</summary>
    public void Finish() => _finishedAt ??= Stopwatch.GetTimestamp();

    /// <summary>
    /// An HTTP answer of an operation (places, availability, reserve), by status code; an error
    /// answer is counted with its problem code when the caller read one (who answered: HAProxy's
    /// service-busy or the API's database-unavailable).
    /// </summary>
    public void Answer(string operation, int status, TimeSpan latency, string? problemCode = null)
    {
        _latencies.GetOrAdd((operation, status), static _ => new Samples()).Add(latency.TotalMilliseconds);
        if (status is >= 500 or 408) // 408: a proxy gave up waiting for the request
        {
            _errors.AddOrUpdate(problemCode is null ? $"{operation}: HTTP {status}" : $"{operation}: HTTP {status} {problemCode}", 1, static (_, n) => n + 1);
        }
    }

    /// <summary>A request that got no HTTP answer: timeout, refused connection, reset.</summary>
    public void Failure(string operation, string kind) => _errors.AddOrUpdate($"{operation}: {kind}", 1, static (_, n) => n + 1);

    public void Confirmed(ReservationBody body) =>
        _confirmations.Enqueue(new Confirmation(body.Code, body.PlaceId, body.Day, body.Time, SecondsSinceStart));

    public void Ended(UserOutcome outcome) => Interlocked.Increment(ref _outcomes[(int)outcome]);

    public void UserStarted() => Interlocked.Increment(ref _started);

    public void UserNotStarted() => Interlocked.Increment(ref _notStarted);

    public long Started => Interlocked.Read(ref _started);

    public long NotStarted => Interlocked.Read(ref _notStarted);

    public IReadOnlyCollection<Confirmation> Confirmations => _confirmations;

    public IReadOnlyDictionary<string, long> Errors => _errors;

    /// <summary>The outcomes that happened at least once.</summary>
    public IReadOnlyDictionary<UserOutcome, long> Outcomes =>
        Enum.GetValues<UserOutcome>().Select(o => (Outcome: o, N: Interlocked.Read(ref _outcomes[(int)o]))).Where(x => x.N > 0).ToDictionary(x => x.Outcome, x => x.N);

    /// <summary>Latency samples by "operation status" ("reserve 201").</summary>
    public IReadOnlyDictionary<string, IReadOnlyCollection<double>> Latencies =>
        _latencies.ToDictionary(kv => $"{kv.Key.Operation} {kv.Key.Status}", kv => (IReadOnlyCollection<double>)kv.Value.Snapshot(), StringComparer.Ordinal);

    private sealed class Samples
    {
        private readonly List<double> _values = [];

        public void Add(double value)
        {
            lock (_values)
            {
                _values.Add(value);
            }
        }

        public double[] Snapshot()
        {
            lock (_values)
            {
                return _values.ToArray();
            }
        }
    }
}
