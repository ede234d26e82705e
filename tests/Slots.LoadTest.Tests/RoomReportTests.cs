using System.Text.Json;
using Slots.LoadTest.Reporting;
using Slots.LoadTest.Room;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Tests;

/// <summary>The waiting-room stampede's figures and verdicts, on runs made by hand.</summary>
public sealed class RoomReportTests
{
    private static readonly RoomOptions Options = new() { Targets = [new Uri("http://127.0.0.1:1")], AdminKey = "a-key-of-sixteen-chars", RunId = "TEST" };

    /// <summary>
    /// Four seats, opening at 5 s. Two people in the pre-queue and two after the opening are admitted
    /// in place order and book; two waiting are told no-seats-left once the last seat went (6.5 s);
    /// one joins after that and is told at once.
    /// </summary>
    private static RoomRun GoodRun(Action<List<ArrivalLog>, List<OpeningSample>>? spoil = null)
    {
        var recorder = new Recorder();
        var arrivals = new List<ArrivalLog>
        {
            Booked(0, sent: 0.1, position: 2, admitted: 5.2, booked: 5.5),
            Booked(1, sent: 0.2, position: 1, admitted: 5.1, booked: 5.4),
            Booked(2, sent: 5.3, position: 3, admitted: 6.1, booked: 6.3),
            Booked(3, sent: 5.4, position: 4, admitted: 6.1, booked: 6.5),
            Waiting(4, sent: 5.6, position: 5, told: 7.0),
            Waiting(5, sent: 5.7, position: 6, told: 7.2, rejoined: true),
            Waiting(6, sent: 8.0, position: 7, told: 8.02),
        };
        var samples = new List<OpeningSample>
        {
            new(1.0, 2, null, 0, 0), // before the counter's first step: not a sell-out
            new(2.0, 2, null, 0, 4),
            new(5.5, 4, 2, 2, 2),
            new(6.2, 6, 2, 4, 1),
            new(6.75, 6, 2, 4, 0),
            new(9.0, 7, 2, 4, 0),
        };
        spoil?.Invoke(arrivals, samples);
        foreach (var a in arrivals)
        {
            recorder.Answer("join", 201, TimeSpan.FromMilliseconds(3));
            recorder.Answer("status", 200, TimeSpan.FromMilliseconds(1));
            if (a.BookedAt is not null)
            {
                recorder.Answer("availability", 200, TimeSpan.FromMilliseconds(2));
                recorder.Answer("reserve", 201, TimeSpan.FromMilliseconds(8));
                recorder.Confirmed(new ReservationBody($"CODE{a.Number:D6}", 9, "2030-01-01", "08:00"));
            }
        }
        recorder.Answer("join", 200, TimeSpan.FromMilliseconds(2));
        recorder.Answer("status", 429, TimeSpan.FromMilliseconds(1));
        recorder.Finish();
        return new RoomRun(DateTimeOffset.UnixEpoch, 9, 1, "2030-01-01", 4, 5.0, arrivals, samples, recorder, 0, []);
    }

    private static ArrivalLog Booked(long n, double sent, long position, double admitted, double booked) => new()
    {
        Number = n,
        JoinStatus = 201,
        JoinSentAt = sent,
        JoinAt = sent + 0.02,
        Position = position,
        Polls = 2,
        LastWaitingSentAt = admitted - 0.5,
        AdmittedAt = admitted,
        BookedAt = booked,
        EndedAt = booked,
        Outcome = ArrivalOutcome.Booked,
    };

    private static ArrivalLog Waiting(long n, double sent, long position, double told, bool rejoined = false) => new()
    {
        Number = n,
        Rejoins = rejoined,
        JoinStatus = 201,
        JoinSentAt = sent,
        JoinAt = sent + 0.02,
        Position = position,
        Polls = 3,
        RejoinStatus = rejoined ? 200 : null,
        RejoinPosition = rejoined ? position : null,
        LastWaitingSentAt = told > sent + 0.02 ? told - 1 : null,
        NoSeatsAt = told,
        EndedAt = told,
        Outcome = ArrivalOutcome.NoSeatsLeft,
    };

    [Fact]
    public void A_good_run_passes_every_check_and_reads_back_from_its_json_into_the_summary()
    {
        var report = RoomReport.From(Options, GoodRun(), null, null);
        var folder = Directory.CreateTempSubdirectory("slots-room-");
        try
        {
            File.WriteAllText(Path.Combine(folder.FullName, "room.json"), JsonSerializer.Serialize(report, RunReport.Json));

            var read = JsonSerializer.Deserialize<RoomReport>(File.ReadAllText(Path.Combine(folder.FullName, "room.json")), RunReport.Json)!;
            var md = Summary.Markdown(folder.FullName, "sqlite");

            Assert.True(report.Passed, report.ToTable());
            Assert.True(read.Passed);
            Assert.Equal(report.Checks, read.Checks);
            Assert.Equal(report.SellOut, read.SellOut);
            Assert.Equal(report.Fairness, read.Fairness);
            Assert.Equal(report.Told.AfterLastSeatMs, read.Told.AfterLastSeatMs);
            Assert.Equal(report.Samples, read.Samples);
            Assert.Equal((4, 7, 1, 1, 0), (read.Counts.Bookings, read.Counts.JoinsCreated, read.Counts.JoinsAgain, read.Counts.Rejoiners, read.Counts.RejoinsMoved));
            Assert.Equal((2, 2, 0), (read.Told.WaitingAtSellOut, read.Told.Told, read.Told.NeverTold));
            Assert.Equal(500, read.Told.AfterLastSeatMs.P50);
            Assert.Equal(700, read.Told.AfterLastSeatMs.Max);
            Assert.Equal(1, read.Counts.Answers429);
            Assert.Contains("- waiting-room stampede (7 arrivals for 4 seats at one place", md);
            Assert.Contains("**all checks passed**", md);
            Assert.Contains("booked 4 of 4 seats", md);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public void An_admission_after_the_sell_out_fails_the_run()
    {
        var run = GoodRun((arrivals, samples) =>
        {
            samples.Add(new OpeningSample(9.5, 7, 2, 5, 0));
            arrivals[4].AdmittedAt = 9.6;
        });

        var report = RoomReport.From(Options, run, null, null);

        Assert.False(report.Passed);
        var check = Assert.Single(report.Checks, c => !c.Passed);
        Assert.Equal("nobody admitted after sell-out", check.Name);
        Assert.Equal((4L, 5L, 1L), (report.SellOut.ServedAtSoldOut!.Value, report.SellOut.ServedAtEnd, report.SellOut.AdmittedAfterSoldOut));
    }

    [Fact]
    public void Fewer_bookings_than_seats_fail_the_run_and_so_does_a_database_that_holds_another_number()
    {
        var short1 = RoomReport.From(Options, GoodRun((arrivals, _) => arrivals[3].BookedAt = null), null, null);
        var heldWrong = RoomReport.From(Options, GoodRun(), null, placeReservations: 5);

        Assert.Contains(short1.Checks, c => c.Name == "booked = seats" && !c.Passed);
        Assert.Contains(heldWrong.Checks, c => c.Name == "booked = seats" && !c.Passed && c.Detail.Contains("the database holds 5", StringComparison.Ordinal));
    }

    [Fact]
    public void Someone_waiting_when_the_last_seat_went_and_never_told_fails_the_run()
    {
        var report = RoomReport.From(Options, GoodRun((arrivals, _) =>
        {
            arrivals[4].NoSeatsAt = null;
            arrivals[4].Outcome = ArrivalOutcome.CutOff;
            arrivals[4].EndedAt = 30;
        }), null, null);

        Assert.Equal(1, report.Told.NeverTold);
        Assert.Contains(report.Checks, c => c.Name == "everyone waiting told no-seats-left" && !c.Passed);
    }

    [Fact]
    public void A_join_placed_ahead_of_one_answered_before_it_was_sent_is_an_inversion_and_overlapping_joins_are_not()
    {
        ArrivalLog Join(long n, double sent, double answered, long position) =>
            new() { Number = n, JoinStatus = 201, JoinSentAt = sent, JoinAt = answered, Position = position };

        var inOrder = RoomFigures.Fairness([Join(0, 5.1, 5.2, 10), Join(1, 5.15, 5.25, 9)], opensAt: 5, slackSeconds: 1);
        var overtaken = RoomFigures.Fairness([Join(0, 5.1, 5.2, 10), Join(1, 5.3, 5.35, 9)], opensAt: 5, slackSeconds: 1);
        var preQueue = RoomFigures.Fairness([Join(0, 4.1, 4.2, 10), Join(1, 4.3, 4.35, 9)], opensAt: 5, slackSeconds: 1);

        Assert.Equal(0, inOrder.JoinOrderInversions);
        Assert.Equal(1, overtaken.JoinOrderInversions);
        Assert.Equal((0L, 0L), (preQueue.PostOpeningJoins, preQueue.JoinOrderInversions));
    }

    [Fact]
    public void Told_waiting_after_someone_further_back_was_admitted_is_an_inversion_beyond_the_slack()
    {
        ArrivalLog Placed(long n, long position, double? lastWaiting, double? admitted) =>
            new() { Number = n, Position = position, LastWaitingSentAt = lastWaiting, AdmittedAt = admitted };

        var late = RoomFigures.Fairness([Placed(0, 3, lastWaiting: 9.0, admitted: null), Placed(1, 5, null, admitted: 7.0)], opensAt: 5, slackSeconds: 1);
        var withinSlack = RoomFigures.Fairness([Placed(0, 3, lastWaiting: 9.0, admitted: null), Placed(1, 5, null, admitted: 8.5)], opensAt: 5, slackSeconds: 1);
        var ahead = RoomFigures.Fairness([Placed(0, 6, lastWaiting: 9.0, admitted: null), Placed(1, 5, null, admitted: 7.0)], opensAt: 5, slackSeconds: 1);

        Assert.Equal(1, late.AdmissionOrderInversions);
        Assert.Equal(0, withinSlack.AdmissionOrderInversions);
        Assert.Equal(0, ahead.AdmissionOrderInversions);
    }

    [Fact]
    public void Seats_are_whole_slots_and_the_crowd_and_pace_follow_them()
    {
        var options = RoomOptions.From(new Args(["--target", "http://127.0.0.1:1", "--admin-key", "a-key-of-sixteen-chars", "--seats", "100"]))!;

        Assert.Equal((3, 102, 2040), (options.Capacity, options.Seats, options.Arrivals));
        Assert.Equal(102 / 5.0, options.AdmitPerSecond);
        Assert.Equal(6, options.AbandonAllowance);
    }

    [Fact]
    public void The_room_needs_an_admin_key_and_a_loopback_target()
    {
        var args = new Args(["--target", "http://10.0.0.1:80"]);

        RoomOptions.From(args);

        Assert.Contains(args.Errors, e => e.Contains("--admin-key", StringComparison.Ordinal));
        Assert.Contains(args.Errors, e => e.Contains("loopback", StringComparison.Ordinal));
    }
}
