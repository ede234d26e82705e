using System.Globalization;
using Slots.LoadTest.Reporting;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Room;

/// <summary>The opening's counters as staff read them, at <see cref="At"/> seconds into the run.</summary>
public sealed record OpeningSample(double At, long Joined, long? PreQueue, long Served, long SeatsLeft);

/// <summary>
/// What a run of the scenario saw, before any figure is taken from it. Times in seconds since the
/// run (the first arrival) started; <paramref name="Processes"/> from then until the last arrival was done.
/// </summary>
public sealed record RoomRun(
    DateTimeOffset StartedAt,
    int PlaceId,
    long OpeningId,
    string Day,
    int Seats,
    double OpensAt,
    IReadOnlyList<ArrivalLog> Arrivals,
    IReadOnlyList<OpeningSample> Samples,
    Recorder Recorder,
    long SampleErrors,
    IReadOnlyList<ProcessStats> Processes);

/// <summary>
/// Sets the scene through the staff API (a place, a day of seats, an opening a few seconds ahead),
/// lets the arrivals in evenly over the arrival window (some before the opening, some after),
/// reads the opening's counters every 250 ms, and closes the opening when the crowd is done.
/// Bounded: a time limit for the whole crowd, a cap on requests in flight.
/// </summary>
public sealed class RoomStampede(RoomOptions options)
{
    private static readonly TimeSpan SampleEvery = TimeSpan.FromMilliseconds(250);

    /// <param name="watched">Processes whose CPU and memory are sampled while the crowd is at it (this generator is added).</param>
    public async Task<RoomRun> RunAsync(SourceAddresses sources, IReadOnlyList<(string Role, int Pid)> watched, CancellationToken ct)
    {
        using var staffHandler = new SocketsHttpHandler { UseProxy = false, UseCookies = false, ConnectTimeout = TimeSpan.FromSeconds(5) }.TrustingStackCa();
        using var staffClient = new HttpClient(staffHandler) { Timeout = Timeout.InfiniteTimeSpan };
        var staff = new Staff(staffClient, options.Targets[0], options.AdminKey);
        var zone = TimeZoneInfo.FindSystemTimeZoneById("Europe/Bratislava");
        var today = DateOnly.FromDateTime(TimeZoneInfo.ConvertTime(DateTimeOffset.UtcNow, zone).DateTime);
        var day = today.AddDays(1).ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);
        var (placeId, seats) = await staff.CreatePlaceAsync(options.RunId, day, options.Capacity, ct);

        // A whole second: the store keeps opening times in seconds. One more second for every instance's view to hear of it.
        var opensAt = DateTimeOffset.FromUnixTimeSeconds((long)Math.Ceiling((DateTimeOffset.UtcNow + options.PreQueue + TimeSpan.FromSeconds(1)).ToUnixTimeMilliseconds() / 1000.0));
        var opening = await staff.OpenAsync(new NewOpeningBody([placeId], opensAt, options.AdmitPerSecond, options.AdmissionSeconds, options.AbandonAllowance), ct);
        var firstArrival = opensAt - options.PreQueue;
        if (firstArrival > DateTimeOffset.UtcNow)
        {
            await Task.Delay(firstArrival - DateTimeOffset.UtcNow, ct);
        }

        await using var cpu = new ProcessSampler([.. watched, ("generator", Environment.ProcessId)]);
        cpu.Start();
        var recorder = new Recorder();
        var startedAt = DateTimeOffset.UtcNow;
        var opensAtSeconds = (opensAt - startedAt).TotalSeconds;
        var pick = new Random(options.Seed);
        var logs = Enumerable.Range(0, options.Arrivals)
            .Select(n => new ArrivalLog { Number = n, Rejoins = pick.NextDouble() < options.RejoinShare, Abandons = pick.NextDouble() < options.AbandonShare })
            .ToList();
        using var inFlight = new SemaphoreSlim(options.MaxInFlight, options.MaxInFlight);
        var room = new RoomTarget(opening.Id, placeId, day, recorder, inFlight);

        using var runEnd = CancellationTokenSource.CreateLinkedTokenSource(ct);
        runEnd.CancelAfter(options.TimeLimit);
        using var stopSampling = CancellationTokenSource.CreateLinkedTokenSource(ct);
        var samples = new List<OpeningSample>();
        long sampleErrors = 0;
        async Task SampleAsync()
        {
            try
            {
                var o = await staff.ReadAsync(opening.Id, stopSampling.Token);
                lock (samples)
                {
                    samples.Add(new OpeningSample(Math.Round(recorder.SecondsSinceStart, 3), o.Joined, o.PreQueue, o.Served, o.SeatsLeft));
                }
            }
            catch (Exception ex) when (ex is HttpRequestException or InvalidOperationException ||
                                       (ex is OperationCanceledException && !stopSampling.IsCancellationRequested))
            {
                Interlocked.Increment(ref sampleErrors);
            }
        }
        var sampler = Task.Run(async () =>
        {
            using var timer = new PeriodicTimer(SampleEvery);
            try
            {
                do
                {
                    await SampleAsync();
                }
                while (await timer.WaitForNextTickAsync(stopSampling.Token));
            }
            catch (OperationCanceledException) when (stopSampling.IsCancellationRequested)
            {
                // the crowd is done and settled
            }
        }, CancellationToken.None);

        var crowd = new List<Task>(options.Arrivals);
        for (var started = 0; started < options.Arrivals && !runEnd.IsCancellationRequested;)
        {
            var due = options.ArrivalWindow <= TimeSpan.Zero
                ? options.Arrivals
                : (int)Math.Min(options.Arrivals, Math.Floor(recorder.SecondsSinceStart / options.ArrivalWindow.TotalSeconds * options.Arrivals) + 1);
            for (; started < due; started++)
            {
                var log = logs[started];
                var arrival = new Arrival(log, options, room, sources.For(log.Number), options.Targets[(int)(log.Number % options.Targets.Count)]);
                crowd.Add(Task.Run(async () =>
                {
                    await arrival.RunAsync(runEnd.Token);
                    log.EndedAt = recorder.SecondsSinceStart;
                }, CancellationToken.None));
            }
            await Task.Delay(TimeSpan.FromMilliseconds(2), CancellationToken.None);
        }
        await Task.WhenAll(crowd);
        recorder.Finish();
        var processes = await cpu.StopAsync();

        // A counter step after the crowd left would still show: keep reading a little longer.
        await Task.Delay(options.Settle, ct);
        await stopSampling.CancelAsync();
        await sampler;
        var last = await staff.ReadAsync(opening.Id, ct);
        samples.Add(new OpeningSample(Math.Round(recorder.SecondsSinceStart, 3), last.Joined, last.PreQueue, last.Served, last.SeatsLeft));
        // The place is the run's own; closing its opening stops the counter working on it for the rest of the benchmark.
        await staff.CloseAsync(opening.Id, ct);
        return new RoomRun(startedAt, placeId, opening.Id, day, seats, Math.Round(opensAtSeconds, 3), logs, samples, recorder, sampleErrors, processes);
    }
}
