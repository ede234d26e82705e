using Slots.LoadTest.Bench;
using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Tests.Bench;

/// <summary>./slots bench reminders: its knobs, what it reads from wrk, the days it books and the summary it writes.</summary>
public sealed class RemindersFiguresTests
{
    private const string Wrk = """
        Running 5s test @ http://127.0.0.1:40123/api/reservations
          2 threads and 8 connections
          Thread Stats   Avg      Stdev     Max   +/- Stdev
            Latency     4.12ms    3.01ms  42.01ms   85.33%
            Req/Sec     1.00k   120.00     1.20k    70.00%
          Latency Distribution
             50%    3.50ms
             75%    5.00ms
             90%    7.00ms
             99%  242.40ms
          9500 requests in 5.00s, 3.00MB read
        Requests/sec:   1900.12
        Transfer/sec:    600.00KB
        bookings: 9500 booked, 0 other answers
        """;

    [Fact]
    public void Options_default_to_the_scripts_defaults()
    {
        var errors = new List<string>();

        var options = RemindersOptions.From(_ => null, errors);

        Assert.Equal(new RemindersOptions(Seconds: 15, Rate: 20, Batch: 100, Rounds: 3), options);
        Assert.Empty(errors);
    }

    [Fact]
    public void On_postgres_the_options_default_to_the_products_reminder_settings_and_name_the_backend_in_the_command()
    {
        var errors = new List<string>();

        var options = RemindersOptions.From(_ => null, errors, Slots.LoadTest.Data.Provider.Postgres);

        Assert.Equal(new RemindersOptions(Seconds: 30, Rate: 20, Batch: 500, Rounds: 3, Every: 15, Backend: Slots.LoadTest.Data.Provider.Postgres), options);
        Assert.Empty(errors);
        Assert.EndsWith("SLOTS_REM_EVERY=15 ./slots bench reminders --backend postgres", options.Command, StringComparison.Ordinal);
    }

    [Fact]
    public void Options_are_read_from_the_scripts_environment_variables()
    {
        var environment = new Dictionary<string, string>
        {
            ["SLOTS_REM_SECONDS"] = "5",
            ["SLOTS_REM_RATE"] = "1000000",
            ["SLOTS_REM_BATCH"] = "1000",
            ["SLOTS_REM_ROUNDS"] = "1",
        };

        var options = RemindersOptions.From(n => environment.GetValueOrDefault(n), []);

        Assert.Equal(new RemindersOptions(5, 1_000_000, 1000, 1), options);
    }

    [Theory]
    [InlineData("SLOTS_REM_SECONDS", "0")]
    [InlineData("SLOTS_REM_ROUNDS", "three")]
    [InlineData("SLOTS_REM_RATE", "-5")]
    public void A_knob_out_of_bounds_is_an_error_naming_the_variable(string name, string value)
    {
        var errors = new List<string>();

        RemindersOptions.From(n => n == name ? value : null, errors);

        Assert.Contains(errors, e => e.StartsWith(name, StringComparison.Ordinal));
    }

    [Fact]
    public void The_p99_and_the_rate_are_read_from_wrks_latency_output()
    {
        Assert.Equal(242.4, RemindersFigures.P99Milliseconds(Wrk)!.Value, 3);
        Assert.Equal(1900.12, RemindersFigures.RequestsPerSecond(Wrk)!.Value, 3);
    }

    [Theory]
    [InlineData("850.00us", 0.85)]
    [InlineData("12.5ms", 12.5)]
    [InlineData("1.20s", 1200)]
    [InlineData("1.50m", 90_000)]
    public void A_p99_in_any_of_wrks_units_is_given_in_milliseconds(string value, double milliseconds) =>
        Assert.Equal(milliseconds, RemindersFigures.P99Milliseconds($"  Latency Distribution\n     99%   {value}\n")!.Value, 6);

    [Fact]
    public void Output_without_a_latency_distribution_has_no_p99() =>
        Assert.Null(RemindersFigures.P99Milliseconds("unable to connect to 127.0.0.1:1 Connection refused\n"));

    [Fact]
    public void The_median_of_an_even_count_is_the_mean_of_the_middle_two()
    {
        Assert.Equal(50, LatencyStats.Median([80, 20, 40, 60]));
        Assert.Equal(40, LatencyStats.Median([80, 20, 40]));
    }

    [Fact]
    public void Tomorrow_is_taken_at_the_places_not_in_utc()
    {
        var bratislava = TimeZoneInfo.FindSystemTimeZoneById("Europe/Bratislava");

        // 23:30 UTC on 1 July is 01:30 on 2 July in Bratislava (summer time).
        var (tomorrow, later) = RemindersFigures.Days(new DateTimeOffset(2026, 7, 1, 23, 30, 0, TimeSpan.Zero), bratislava);

        Assert.Equal(new DateOnly(2026, 7, 3), tomorrow);
        Assert.Equal(new DateOnly(2026, 7, 4), later);
    }

    [Fact]
    public void The_summary_has_a_row_per_window_and_the_medians_of_each_side()
    {
        var options = new RemindersOptions(15, 20, 100, 2);
        ReminderWindow[] windows =
        [
            new(1, false, 30.0, 1500, 0, 15.1),
            new(1, true, 45.5, 1400, 300, 15.0),
            new(2, false, 50.0, 1700, 0, 15.0),
            new(2, true, 60.5, 1200, 300, 15.2),
        ];

        var md = RemindersFigures.Summary(options, 100_800, 600, (600, 600), windows, new DateTimeOffset(2026, 3, 1, 12, 0, 0, TimeSpan.Zero), 2);

        Assert.Contains("# A reminder run for a day of 100800 bookings (2026-03-01T12:00:00Z, 2 cores, SQLite, one place, 1 instance, Release)", md);
        Assert.Contains("Command: `SLOTS_REM_SECONDS=15 SLOTS_REM_RATE=20 SLOTS_REM_BATCH=100 SLOTS_REM_ROUNDS=2 SLOTS_REM_EVERY=1 ./slots bench reminders`", md);
        Assert.Contains("Reminders queued over the whole run: 600 of 100800; SMS rows (rows, distinct codes): 600 600.", md);
        Assert.Contains("| 2 | going out at 20/s | 60.5 | 1200 | 300 | 0 / 0 |", md);
        Assert.Contains("| 1 | none | 30.0 | 1500 | 0 | 0 / 0 |", md);
        Assert.Contains("- without reminders: booking p99 median 40.0 ms (range 30.0-50.0), bookings/s median 1,600, CPU µs per booking median 0 (API) / 0 (machine)", md);
        Assert.Contains("- while reminders go out: booking p99 median 53.0 ms (range 45.5-60.5), bookings/s median 1,300, CPU µs per booking median 0 (API) / 0 (machine)", md);
    }

    [Fact]
    public void On_postgres_the_summary_names_the_scale_and_lists_the_jobs_statements()
    {
        var options = new RemindersOptions(30, 20, 500, 1, 15, Slots.LoadTest.Data.Provider.Postgres);
        ReminderWindow[] windows = [new(1, false, 30.0, 1500, 0, 30.0, 300, 1000), new(1, true, 35.0, 1450, 600, 30.0, 310, 1100)];

        var md = RemindersFigures.Summary(options, 102_000, 600, (600, 600), windows, new DateTimeOffset(2026, 3, 1, 12, 0, 0, TimeSpan.Zero), 2,
            ["      40      120.0    3.000      600  SELECT ... FROM hot_seats ... reminders"]);

        Assert.Contains("2 cores, PostgreSQL, 5.1 M hot seats, 1,000 places, 1 instance", md);
        Assert.Contains("batches of 500, the job every 15 s.", md);
        Assert.Contains("| 1 | going out at 20/s | 35.0 | 1450 | 600 | 310 / 1100 |", md);
        Assert.Contains("pg_stat_statements", md);
        Assert.Contains("      40      120.0    3.000      600  SELECT ... FROM hot_seats ... reminders", md);
    }

    [Fact]
    public void The_machines_busy_time_and_the_booked_count_are_read_from_proc_stat_and_book_lua()
    {
        // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
        Assert.Equal(10.0, RemindersFigures.MachineBusySeconds("cpu  500 100 300 9000 700 50 50 0 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n"), 6);
        Assert.Equal(9500, RemindersFigures.Booked(Wrk));
        Assert.Null(RemindersFigures.Booked("Requests/sec: 10\n"));
    }

    [Fact]
    public void A_windows_line_is_the_scripts_row()
    {
        Assert.Equal("3 during 116.0 821 160 5.0 212 905", new ReminderWindow(3, true, 116.04, 820.6, 160, 4.98, 211.6, 904.9).Line);
    }
}
