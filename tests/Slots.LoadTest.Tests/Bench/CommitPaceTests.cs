using Slots.LoadTest.Bench;
using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Tests.Bench;

/// <summary>The database's commit pace from pgbench's per-transaction log, as the bench reads it before the waiting list.</summary>
public sealed class CommitPaceTests
{
    [Fact]
    public void Each_commits_time_is_read_in_milliseconds_with_or_without_the_schedule_lag_and_a_skipped_or_failed_one_is_left_out()
    {
        string[] log =
        [
            "0 0 812 0 1764640000 123456 35",      // with --rate: the schedule lag follows
            "0 1 125075 0 1764640000 143456 12",
            "0 2 skipped 0 1764640000 163456 0",   // with --latency-limit: never sent
            "0 3 failed 0 1764640000 183456 0",
            "0 4 1029 0 1764640001 3456",          // without --rate
            "",
        ];

        Assert.Equal([0.812, 125.075, 1.029], CommitPace.Latencies(log));
    }

    [Fact]
    public void The_line_names_the_rate_durability_and_percentiles()
    {
        var yardstick = new CommitYardstick("pgbench", 50, 10, true, LatencyStats.Of([0.8, 1.0, 1.2, 125.1]).Rounded());

        var line = CommitPace.Line(yardstick);

        Assert.Equal("the database's commits (pgbench, one client, 50 one-row commits a second for 10 s, durable): p50 1.00 ms, p99 125.10 ms, "
            + "max 125.10 ms over 4", line);
    }
}
