using Slots.LoadTest.Reporting;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Tests;

public sealed class RunReportTests
{
    private static readonly SimulationOptions Options = new() { Targets = [new Uri("http://127.0.0.1:1")], Mode = Mode.Closed };

    // Regression: goodput was divided by the time up to the report, which includes the audit after
    // the run (20 s for 10 000 confirmations), so it read half of what the server did.
    [Fact]
    public async Task Goodput_is_per_second_of_the_run_not_of_the_run_and_the_audit_after_it()
    {
        var recorder = new Recorder();
        for (var i = 0; i < 100; i++)
        {
            recorder.Answer("reserve", 201, TimeSpan.FromMilliseconds(2));
            recorder.Confirmed(new ReservationBody($"CODE{i:D6}", 1, "2030-01-01", "08:00"));
        }
        recorder.Finish();
        var finished = recorder.Elapsed;

        await Task.Delay(300, TestContext.Current.CancellationToken); // the audit
        var report = RunReport.From(Options, DateTimeOffset.UtcNow, recorder, [], null);

        Assert.Equal(finished, recorder.Elapsed);
        // Against the run's own time (the report rounds to 0.1), not a wall-clock bound: a starved
        // test machine may take long over the loop itself. With the bug both include the 300 ms audit.
        Assert.Equal(Math.Round(finished.TotalSeconds, 1), report.ElapsedSeconds);
        Assert.Equal(Math.Round(100 / Math.Max(0.001, finished.TotalSeconds), 1), report.GoodputPerSecond);
    }

    [Fact]
    public void Shares_and_latencies_are_taken_per_status()
    {
        var recorder = new Recorder();
        recorder.Answer("reserve", 201, TimeSpan.FromMilliseconds(10));
        recorder.Answer("reserve", 429, TimeSpan.FromMilliseconds(1));
        recorder.Answer("reserve", 429, TimeSpan.FromMilliseconds(3));
        recorder.Answer("reserve", 503, TimeSpan.FromMilliseconds(7));
        recorder.Answer("availability", 200, TimeSpan.FromMilliseconds(5));
        recorder.Finish();

        var report = RunReport.From(Options, DateTimeOffset.UtcNow, recorder, [], null);

        Assert.Equal(4, report.ReserveRequests);
        Assert.Equal(0.5, report.Share429);
        Assert.Equal(0.25, report.Share503);
        Assert.Equal(3, report.Latency["reserve 429"].Max);
        Assert.Equal(1, report.Errors["reserve: HTTP 503"]);
        Assert.Equal(2, report.Statuses["reserve 429"]);
    }

    [Fact]
    public void A_proxy_timeout_408_is_listed_with_the_errors_and_2xx_4xx_answers_are_not()
    {
        var recorder = new Recorder();
        recorder.Answer("reserve", 408, TimeSpan.FromMilliseconds(2000));
        recorder.Answer("reserve", 409, TimeSpan.FromMilliseconds(5));
        recorder.Answer("reserve", 201, TimeSpan.FromMilliseconds(5));
        recorder.Failure("reserve", "no answer: ResponseEnded");
        recorder.Finish();

        var report = RunReport.From(Options, DateTimeOffset.UtcNow, recorder, [], null);

        Assert.Equal(2, report.Errors.Count);
        Assert.Equal(1, report.Errors["reserve: HTTP 408"]);
        Assert.Equal(1, report.Errors["reserve: no answer: ResponseEnded"]);
    }

    [Fact]
    public void The_summary_lists_the_sold_out_stampede_with_what_each_kind_of_answer_cost()
    {
        var recorder = new Recorder();
        recorder.Answer("availability", 200, TimeSpan.FromMilliseconds(4));
        recorder.Answer("reserve", 201, TimeSpan.FromMilliseconds(20));
        recorder.Confirmed(new ReservationBody("AAAAA-BBBBB", 1, "2030-01-01", "08:00"));
        recorder.Answer("reserve", 409, TimeSpan.FromMilliseconds(6));
        recorder.Answer("reserve", 409, TimeSpan.FromMilliseconds(8));
        recorder.Finish();
        var report = RunReport.From(Options with { Scenario = "soldout" }, DateTimeOffset.UtcNow, recorder, [], null);
        var folder = Directory.CreateTempSubdirectory("slots-summary-");
        try
        {
            File.WriteAllText(Path.Combine(folder.FullName, "soldout.json"), System.Text.Json.JsonSerializer.Serialize(report, RunReport.Json));

            var md = Summary.Markdown(folder.FullName, "postgres");

            Assert.Contains("| sold-out stampede |", md);
            Assert.Contains("- sold-out stampede (one place, a week's seats, the same step): booked 1; answers at the client: reserve 409 2 (p99 8.0 ms)", md);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    // A sold-out crowd is mostly told "no free seat" by the availability read and never asks to book: those users were
    // decided too, and the CPU per decided answer counted only the reserve answers (4,000 µs for what cost ~130 µs a user).
    [Fact]
    public void A_user_told_no_free_seat_by_availability_is_a_decided_answer_and_a_wait_or_a_give_up_is_not()
    {
        var recorder = new Recorder();
        recorder.Answer("availability", 200, TimeSpan.FromMilliseconds(1));
        recorder.Ended(UserOutcome.NoFreeSeat);
        recorder.Answer("availability", 200, TimeSpan.FromMilliseconds(1));
        recorder.Ended(UserOutcome.NoFreeSeat);
        recorder.Answer("availability", 200, TimeSpan.FromMilliseconds(1));
        recorder.Answer("reserve", 429, TimeSpan.FromMilliseconds(1));
        recorder.Ended(UserOutcome.GaveUp);
        recorder.Answer("availability", 200, TimeSpan.FromMilliseconds(1));
        recorder.Answer("reserve", 409, TimeSpan.FromMilliseconds(5));
        recorder.Ended(UserOutcome.SlotFull);
        recorder.Finish();

        var report = RunReport.From(Options with { Scenario = "soldout" }, DateTimeOffset.UtcNow, recorder, [], null);

        Assert.Equal(2, report.NoFreeSeatAnswers);
        Assert.Equal(Math.Round(3 / Math.Max(0.001, recorder.Elapsed.TotalSeconds), 1), report.AnswersPerSecond);
        Assert.Contains("(2 of them no free seat, from availability)", report.ToTable(), StringComparison.Ordinal);
    }
}
