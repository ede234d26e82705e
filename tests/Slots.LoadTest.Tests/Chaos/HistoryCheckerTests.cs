using Slots.LoadTest.Chaos;

namespace Slots.LoadTest.Tests.Chaos;

/// <summary>The chaos checker on small hand-made histories: each broken one must fail it, the clean one must pass.</summary>
public sealed class HistoryCheckerTests
{
    private static readonly SlotRef Nine = new(1, "2030-01-07", 9 * 60);
    private static readonly SlotRef Ten = new(1, "2030-01-07", 10 * 60);

    /// <summary>
    /// Person 1 books A at nine (a lost answer, then a retry with the key), looks it up and moves it to ten;
    /// person 2 books B at nine and cancels it. The state is what a correct system leaves behind.
    /// </summary>
    private static List<Operation> CleanHistory() =>
    [
        new(1, OpKind.Reserve, 1, 0, 5000, Outcome.Unknown, Key: "key-a", PlaceId: 1, Day: "2030-01-07", Time: "09:00"),
        new(2, OpKind.Retry, 1, 5100, 5150, Outcome.Ok, 201, Key: "key-a", PlaceId: 1, Day: "2030-01-07", Time: "09:00", ResultCode: "AAAA"),
        new(3, OpKind.Reserve, 2, 5200, 5250, Outcome.Ok, 201, Key: "key-b", PlaceId: 1, Day: "2030-01-07", Time: "09:00", ResultCode: "BBBB"),
        new(4, OpKind.Lookup, 1, 5300, 5310, Outcome.Ok, 200, Code: "AAAA", ResultCode: "AAAA", ResultPlaceId: 1, ResultDay: "2030-01-07", ResultTime: "09:00"),
        new(5, OpKind.Retry, 1, 5400, 5410, Outcome.Ok, 201, Key: "key-a", PlaceId: 1, Day: "2030-01-07", Time: "09:00", ResultCode: "AAAA"),
        new(6, OpKind.Reschedule, 1, 5500, 5550, Outcome.Ok, 200, Code: "AAAA", PlaceId: 1, Day: "2030-01-07", Time: "10:00"),
        new(7, OpKind.Cancel, 2, 5600, 5650, Outcome.Ok, 204, Code: "BBBB"),
        new(8, OpKind.Reserve, 3, 5700, 5750, Outcome.Fail, 409, Problem: "slot-full", Key: "key-c", PlaceId: 1, Day: "2030-01-07", Time: "10:00"),
    ];

    private static readonly DateTimeOffset Noon = new(2030, 1, 7, 12, 0, 0, TimeSpan.Zero);

    /// <summary>One sink line per id, all written by "scheduler", message n at noon + n seconds.</summary>
    private static List<SinkLine> Sent(params long[] ids) => [.. ids.Select(id => new SinkLine(id, "scheduler", Noon.AddSeconds(id)))];

    private static FinalState CleanState() => new()
    {
        Hot = [new HotReservation("AAAA", Ten, 1, "person-1")],
        Seats = [new HeldSeat(Ten, 1, "AAAA")],
        Capacity = new Dictionary<SlotRef, int> { [Nine] = 1, [Ten] = 1 },
        Disk = [new DiskReservation("AAAA", Ten, 1, "person-1", Cancelled: false), new DiskReservation("BBBB", Nine, 1, "person-2", Cancelled: true)],
        ActivePersons = new Dictionary<string, string> { ["person-1"] = "AAAA" },
        Idempotency = [new IdempotencyRow("key-a", 1, "AAAA"), new IdempotencyRow("key-b", 1, "BBBB"), new IdempotencyRow("key-c", 2, null)],
        Outbox = [new OutboxRow(1, 1, "AAAA", true), new OutboxRow(2, 1, "BBBB", true), new OutboxRow(3, 3, "AAAA", true), new OutboxRow(4, 2, "BBBB", true)],
        SmsSent = new HashSet<long> { 1, 2, 3, 4 },
        SinkLines = Sent(1, 2, 3, 4),
        HotDays = new HashSet<(int, string)> { (1, "2030-01-07") },
        JobRuns = [new JobRunSample("flush", 100, 40, "scheduler1", true), new JobRunSample("flush", 105, 30, "scheduler2", true)],
    };

    private static void AssertFailsOnly(CheckReport report, string rule, string evidence)
    {
        Assert.False(report.Passed);
        var failed = report.Rules.Where(r => !r.Passed).Select(r => r.Name).ToList();
        Assert.Contains(rule, failed);
        Assert.Contains(report[rule].Violations, v => v.Contains(evidence, StringComparison.Ordinal));
    }

    [Fact]
    public void A_clean_history_passes_every_rule()
    {
        var report = HistoryChecker.Check(CleanHistory(), CleanState());

        Assert.All(report.Rules, r => Assert.True(r.Passed, $"{r.Name}: {string.Join("; ", r.Violations)}"));
        Assert.Equal(9, report.Rules.Count);
        Assert.Equal(0, report.Lost);
        Assert.Equal(0, report.Doubled);
    }

    [Fact]
    public void A_lost_201_fails_the_confirmed_reservations_rule()
    {
        // AAAA was answered 201 and never cancelled, but the database no longer has it.
        var state = CleanState() with
        {
            Hot = [],
            Seats = [],
            ActivePersons = new Dictionary<string, string>(),
            Disk = [new DiskReservation("BBBB", Nine, 1, "person-2", Cancelled: true)],
            Idempotency = [new IdempotencyRow("key-b", 1, "BBBB"), new IdempotencyRow("key-c", 2, null)],
            Outbox = [new OutboxRow(2, 1, "BBBB", true), new OutboxRow(4, 2, "BBBB", true)],
            SinkLines = Sent(2, 4),
        };

        var report = HistoryChecker.Check(CleanHistory(), state);

        AssertFailsOnly(report, "confirmed-reservations-exist", "LOST AAAA");
        Assert.Equal(1, report.Lost - report["one-sms-per-change"].Counts.Single(c => c.Key == "lost").Value);
    }

    [Fact]
    public void A_doubled_seat_fails_the_one_code_per_seat_rule()
    {
        var state = CleanState() with
        {
            Hot = [.. CleanState().Hot, new HotReservation("CCCC", Ten, 1, "person-3")],
            Disk = [.. CleanState().Disk, new DiskReservation("CCCC", Ten, 1, "person-3", Cancelled: false)],
        };

        var report = HistoryChecker.Check(CleanHistory(), state);

        AssertFailsOnly(report, "one-code-per-seat", "DOUBLED seat");
        Assert.Contains(report["one-code-per-seat"].Violations, v => v.Contains("OVER CAPACITY", StringComparison.Ordinal));
        Assert.True(report.Doubled >= 2);
    }

    [Fact]
    public void A_replay_with_a_different_code_fails_the_replay_rule()
    {
        var history = CleanHistory();
        history[4] = history[4] with { ResultCode = "ZZZZ" };

        var report = HistoryChecker.Check(history, CleanState());

        AssertFailsOnly(report, "replays-return-the-same-code", "answered AAAA");
    }

    [Fact]
    public void A_doubled_sms_fails_the_one_sms_rule()
    {
        var state = CleanState() with { SinkLines = Sent(1, 2, 3, 3, 4) };

        var report = HistoryChecker.Check(CleanHistory(), state);

        AssertFailsOnly(report, "one-sms-per-change", "SMS SENT 2 TIMES: message 3");
        Assert.Equal(1, report.Doubled);
    }

    [Fact]
    public void A_message_sent_again_after_its_sender_was_killed_before_recording_it_is_counted_apart_and_passes()
    {
        // Message 3 was written by "scheduler" at noon + 3 s, which was SIGKILLed 50 ms later; "scheduler2"
        // sent it again once the dead process's claim ran out, 3 minutes later.
        var state = CleanState() with { SinkLines = [.. Sent(1, 2, 3, 4), new SinkLine(3, "scheduler2", Noon.AddSeconds(3).AddMinutes(3))] };
        Fault[] faults = [new Fault(1, "scheduler-kill", "scheduler", 3000, 5000, Healed: true, KilledAt: Noon.AddSeconds(3.05))];

        var report = HistoryChecker.Check(CleanHistory(), state, faults);

        Assert.All(report.Rules, r => Assert.True(r.Passed, $"{r.Name}: {string.Join("; ", r.Violations)}"));
        var counts = report["one-sms-per-change"].Counts.ToDictionary(c => c.Key, c => c.Value);
        Assert.Equal(1, counts["sent again after their sender was killed before its record"]);
        Assert.Equal(3, counts["sent once"]);
        Assert.Equal(0, report.Doubled);
    }

    [Theory]
    [InlineData("scheduler2", 3.05, 183)] // the kill was of the other scheduler
    [InlineData("scheduler", 2.9, 183)] // the kill came before the first copy: a live process sent it
    [InlineData("scheduler", 200, 300)] // the first copy was older than RecordPatience when its sender died
    [InlineData("scheduler", 3.05, 3.02)] // the second copy came before its first sender died
    public void A_second_copy_that_no_kill_of_its_first_sender_explains_fails_the_one_sms_rule(string killed, double killedAtSecond, double secondCopyAtSecond)
    {
        var state = CleanState() with { SinkLines = [.. Sent(1, 2, 3, 4), new SinkLine(3, "scheduler2", Noon.AddSeconds(secondCopyAtSecond))] };
        Fault[] faults = [new Fault(1, "scheduler-kill", killed, 3000, 5000, Healed: true, KilledAt: Noon.AddSeconds(killedAtSecond))];

        var report = HistoryChecker.Check(CleanHistory(), state, faults);

        AssertFailsOnly(report, "one-sms-per-change", "SMS SENT 2 TIMES: message 3");
        Assert.Equal(1, report.Doubled);
    }

    [Fact]
    public void A_third_copy_fails_the_one_sms_rule_even_after_a_kill()
    {
        var state = CleanState() with
        {
            SinkLines = [.. Sent(1, 2, 3, 4), new SinkLine(3, "scheduler2", Noon.AddMinutes(3)), new SinkLine(3, "scheduler2", Noon.AddMinutes(4))],
        };
        Fault[] faults = [new Fault(1, "scheduler-kill", "scheduler", 3000, 5000, Healed: true, KilledAt: Noon.AddSeconds(3.05))];

        var report = HistoryChecker.Check(CleanHistory(), state, faults);

        AssertFailsOnly(report, "one-sms-per-change", "SMS SENT 3 TIMES: message 3");
    }

    [Fact]
    public void A_lost_sms_fails_the_one_sms_rule()
    {
        var state = CleanState() with { SinkLines = Sent(1, 2, 4) };

        var report = HistoryChecker.Check(CleanHistory(), state);

        AssertFailsOnly(report, "one-sms-per-change", "SMS LOST: message 3");
    }

    [Fact]
    public void A_cancel_answered_ok_whose_seat_is_still_held_fails_the_cancel_rule()
    {
        var state = CleanState() with { Seats = [.. CleanState().Seats, new HeldSeat(Nine, 1, "BBBB")] };

        var report = HistoryChecker.Check(CleanHistory(), state);

        AssertFailsOnly(report, "cancels-free-their-seats", "cancelled BBBB still holds its seat");
    }

    [Fact]
    public void A_reservation_no_key_accounts_for_fails_the_unknown_outcome_rule()
    {
        // Key A's lost first attempt took effect as well as its retry: two reservations for one key.
        var state = CleanState() with
        {
            Hot = [.. CleanState().Hot, new HotReservation("GGGG", Nine, 1, "person-9")],
            Seats = [.. CleanState().Seats, new HeldSeat(Nine, 1, "GGGG")],
            ActivePersons = new Dictionary<string, string> { ["person-1"] = "AAAA", ["person-9"] = "GGGG" },
            Disk = [.. CleanState().Disk, new DiskReservation("GGGG", Nine, 1, "person-9", Cancelled: false)],
            Outbox = [.. CleanState().Outbox, new OutboxRow(5, 1, "GGGG", true)],
            SmsSent = new HashSet<long> { 1, 2, 3, 4, 5 },
            SinkLines = Sent(1, 2, 3, 4, 5),
        };

        var report = HistoryChecker.Check(CleanHistory(), state);

        AssertFailsOnly(report, "unknown-outcomes-took-effect-once-or-not-at-all", "GHOST reservation GGGG");
    }

    [Fact]
    public void A_person_with_two_active_reservations_fails_the_person_rule()
    {
        var state = CleanState() with
        {
            Hot = [.. CleanState().Hot, new HotReservation("BBBB", Nine, 1, "person-1")],
            Seats = [.. CleanState().Seats, new HeldSeat(Nine, 1, "BBBB")],
        };

        var report = HistoryChecker.Check(CleanHistory(), state);

        AssertFailsOnly(report, "one-active-reservation-per-person", "TWO ACTIVE");
    }

    [Fact]
    public void A_disk_row_that_lags_the_hot_tables_fails_the_disk_rule()
    {
        var state = CleanState() with
        {
            Disk = [new DiskReservation("AAAA", Nine, 1, "person-1", Cancelled: false), new DiskReservation("BBBB", Nine, 1, "person-2", Cancelled: true)],
        };

        var report = HistoryChecker.Check(CleanHistory(), state);

        AssertFailsOnly(report, "disk-equals-hot", "AAAA is hot at 1/2030-01-07/10:00");
    }

    [Fact]
    public void A_job_running_on_two_nodes_at_once_fails_the_job_rule()
    {
        // A node paused mid-flush for 20 s while the other took the job over.
        var state = CleanState() with
        {
            JobRuns = [new JobRunSample("flush", 100, 20_000, "scheduler1", true), new JobRunSample("flush", 110, 30, "scheduler2", true)],
        };

        var report = HistoryChecker.Check(CleanHistory(), state);

        AssertFailsOnly(report, "no-job-on-two-nodes-at-once", "flush ran on scheduler1");
    }

    [Fact]
    public void Runs_of_one_job_a_second_apart_on_two_nodes_do_not_count_as_overlapping()
    {
        var state = CleanState() with
        {
            JobRuns = [new JobRunSample("relay", 100, 900, "scheduler1", true), new JobRunSample("relay", 100, 50, "scheduler2", true)],
        };

        var report = HistoryChecker.Check(CleanHistory(), state);

        Assert.True(report["no-job-on-two-nodes-at-once"].Passed);
    }

    [Fact]
    public void A_reservation_cancelled_by_a_cancel_of_unknown_outcome_may_be_gone()
    {
        var history = CleanHistory();
        history.Add(new(9, OpKind.Cancel, 1, 6000, 16000, Outcome.Unknown, Code: "AAAA"));
        var state = CleanState() with
        {
            Hot = [],
            Seats = [],
            ActivePersons = new Dictionary<string, string>(),
            Disk = [new DiskReservation("AAAA", Ten, 1, "person-1", Cancelled: true), new DiskReservation("BBBB", Nine, 1, "person-2", Cancelled: true)],
            Outbox = [.. CleanState().Outbox, new OutboxRow(5, 2, "AAAA", true)],
            SmsSent = new HashSet<long> { 1, 2, 3, 4, 5 },
            SinkLines = Sent(1, 2, 3, 4, 5),
        };

        var report = HistoryChecker.Check(history, state);

        Assert.All(report.Rules, r => Assert.True(r.Passed, $"{r.Name}: {string.Join("; ", r.Violations)}"));
    }

    [Fact]
    public void A_lookup_that_sees_a_cancelled_reservation_fails_the_confirmed_reservations_rule()
    {
        var history = CleanHistory();
        history.Add(new(9, OpKind.Lookup, 2, 6000, 6010, Outcome.Ok, 200, Code: "BBBB", ResultCode: "BBBB", ResultPlaceId: 1, ResultDay: "2030-01-07", ResultTime: "09:00"));

        var report = HistoryChecker.Check(history, CleanState());

        AssertFailsOnly(report, "confirmed-reservations-exist", "lookup saw 1/2030-01-07/09:00");
    }
    [Fact]
    public void During_a_primary_switch_only_503_with_retry_after_is_allowed()
    {
        var history = CleanHistory();
        history.Add(new(9, OpKind.Reserve, 4, 6000, 6010, Outcome.Unknown, 503, Problem: "database-unavailable", Key: "key-d", RetryAfter: true,
            PlaceId: 1, Day: "2030-01-07", Time: "10:00"));
        history.Add(new(10, OpKind.Lookup, 1, 6100, 11100, Outcome.Unknown, Problem: "timeout", Code: "AAAA"));
        history.Add(new(11, OpKind.Lookup, 1, 6200, 6210, Outcome.Unknown, 500, Problem: "internal-error", Code: "AAAA"));
        history.Add(new(12, OpKind.Lookup, 1, 6300, 6310, Outcome.Unknown, 503, Problem: "service-busy", Code: "AAAA"));
        Fault[] faults = [new(1, "primary-postgres-kill", "pg1", 5900, 20_000, true)];

        var report = HistoryChecker.Check(history, CleanState(), faults);

        AssertFailsOnly(report, "primary-switch-answers", "#10 lookup");
        Assert.Contains(report["primary-switch-answers"].Violations, v => v.Contains("#11 lookup", StringComparison.Ordinal));
        Assert.Contains(report["primary-switch-answers"].Violations, v => v.Contains("#12 lookup", StringComparison.Ordinal) && v.Contains("without Retry-After", StringComparison.Ordinal));
        Assert.DoesNotContain(report["primary-switch-answers"].Violations, v => v.Contains("#9 ", StringComparison.Ordinal));
        Assert.Equal(3, report["primary-switch-answers"].Violations.Count);
        // The slowest answer is measured over answered requests only: the 5 s timeout is not an answer.
        Assert.Contains(report["primary-switch-answers"].Counts, c => c.Key == "slowest answer ms" && c.Value == 10);
    }

    [Fact]
    public void The_same_failures_outside_a_primary_switch_are_not_judged_by_that_rule()
    {
        var history = CleanHistory();
        history.Add(new(9, OpKind.Lookup, 1, 30_000, 35_000, Outcome.Unknown, Problem: "timeout", Code: "AAAA"));
        Fault[] faults = [new(1, "primary-node-kill", "pg2", 5900, 20_000, true), new(2, "pause", "api1", 29_000, 36_000, true)];

        var report = HistoryChecker.Check(history, CleanState(), faults);

        Assert.True(report["primary-switch-answers"].Passed);
        Assert.DoesNotContain(report.Rules, r => r.Name == "primary-switch-answers" && !r.Passed);
    }

    [Fact]
    public void A_read_holding_an_sms_written_after_the_settle_asks_for_another_settle()
    {
        // The settle saw two SMS; a reminder job wrote a third before the final read.
        var state = CleanState() with { Outbox = [new(1, 1, "AAAA", true), new(2, 1, "BBBB", true), new(3, 5, "AAAA", false)] };

        Assert.True(state.WroteSmsSince(2));
        Assert.False(state.WroteSmsSince(3));
    }
}
