using System.Text.Json.Nodes;
using Slots.LoadTest.Bench;

namespace Slots.LoadTest.Tests.Bench;

/// <summary>./slots bench's options and knobs, the CPU split, and the figures it reads from wrk and pgbench.</summary>
public sealed class BenchOptionsTests
{
    [Fact]
    public void Without_options_it_measures_postgres_at_full_size_with_two_instances()
    {
        var options = Parse([]);

        Assert.Equal("postgres", options.Backend);
        Assert.Equal((20, 5, 64, 1000, 2, 10, 20), (options.Duration, options.Warmup, options.Concurrency, options.Places, options.Instances, options.CeilingSeconds, options.StepFactor));
        Assert.Equal(30, options.GiveUp);
        Assert.Equal(20, options.FirstWarmup);
        Assert.Equal(3, options.RuleRounds);
        Assert.Empty(options.Sweep);
        Assert.True(options.Durable);
        Assert.True(options.HugePages);
        Assert.Equal("postgres", options.ResultsFolder);
    }

    [Fact]
    public void Huge_pages_are_left_alone_when_the_knob_says_0()
    {
        Assert.False(Parse([], ("SLOTS_BENCH_HUGE_PAGES", "0")).HugePages);
    }

    [Fact]
    public void Quick_shrinks_the_sizes_a_knob_leaves_unset_and_keeps_those_it_sets()
    {
        var options = Parse(["--quick", "--sweep", "--backend", "sqlite"], ("SLOTS_BENCH_DURATION", "7"));

        Assert.Equal((7, 3, 20, 1, 1, 3, 10), (options.Duration, options.Warmup, options.Places, options.Instances, options.CeilingSeconds, options.SweepDuration,
            options.GiveUp));
        Assert.Equal([16, 64], options.Sweep);
        Assert.Equal(3, options.FirstWarmup);
        Assert.Equal(1, options.RuleRounds);
        Assert.Equal("./slots bench --backend sqlite --quick --sweep (16 64 users, 3 s)", options.Command);
    }

    [Fact]
    public void Ha_means_the_stack_on_postgres_and_its_own_results_folder()
    {
        var options = Parse(["--ha", "--backend", "sqlite"]);

        Assert.True(options.Stack);
        Assert.Equal("postgres", options.Backend);
        Assert.Equal("stack-ha", options.ResultsFolder);
    }

    [Theory]
    [InlineData("0")]
    [InlineData("10")]
    public void Rounds_of_the_rules_outside_one_to_nine_are_refused_by_name(string rounds)
    {
        List<string> errors = [];

        var options = BenchOptions.From(new Args([]), Env(("SLOTS_BENCH_RULE_ROUNDS", rounds)), errors);

        Assert.Null(options);
        Assert.Contains(errors, e => e.Contains("SLOTS_BENCH_RULE_ROUNDS", StringComparison.Ordinal));
    }

    [Fact]
    public void An_external_target_without_its_database_is_refused_by_name()
    {
        List<string> errors = [];

        var options = BenchOptions.From(new Args([]), Env(("SLOTS_BENCH_TARGET", "http://127.0.0.1:8080")), errors);

        Assert.Null(options);
        Assert.Contains(errors, e => e.Contains("SLOTS_BENCH_DB", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("--backend", "mysql", "--backend")]
    [InlineData("--fast", "true", "fast")]
    public void A_wrong_option_is_refused_by_name(string name, string value, string named)
    {
        List<string> errors = [];

        Assert.Null(BenchOptions.From(new Args([name, value]), Env(), errors));
        Assert.Contains(errors, e => e.Contains(named, StringComparison.Ordinal));
    }

    [Fact]
    public void A_knob_that_is_not_a_number_is_refused_by_name()
    {
        List<string> errors = [];

        Assert.Null(BenchOptions.From(new Args([]), Env(("SLOTS_BENCH_PLACES", "many")), errors));
        Assert.Contains(errors, e => e.Contains("SLOTS_BENCH_PLACES", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("0")]
    [InlineData("301")]
    public void A_give_up_the_users_cannot_have_is_refused_by_name(string seconds)
    {
        List<string> errors = [];

        Assert.Null(BenchOptions.From(new Args(["--quick"]), Env(("SLOTS_BENCH_GIVE_UP", seconds)), errors));
        Assert.Contains(errors, e => e.Contains("SLOTS_BENCH_GIVE_UP", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData(2, "0", "1")]
    [InlineData(4, "0-1", "2-3")]
    [InlineData(16, "0-7", "8-15")]
    public void The_split_gives_the_stack_the_lower_half_of_the_cpus_and_the_load_the_upper(int cpus, string stack, string generator)
    {
        var split = CpuSplit.Split(cpus, "PostgreSQL, APIs")!;

        Assert.Equal(["taskset", "-c", stack], split.Stack);
        Assert.Equal(["taskset", "-c", generator], split.Generator);
        Assert.Null(CpuSplit.Split(1, "PostgreSQL, APIs"));
    }

    [Fact]
    public void The_calibration_sums_each_wrks_answers_per_second_and_keeps_the_worst_latency()
    {
        JsonObject Run(double requests, double seconds, double p99) => new()
        {
            ["requests"] = requests,
            ["seconds"] = seconds,
            ["non2xx"] = 1,
            ["socketErrors"] = 0,
            ["p50Ms"] = 1.0,
            ["p99Ms"] = p99,
            ["maxMs"] = p99 * 2,
        };

        var figures = Calibration.Summarize([Run(10_000, 5, 3.5), Run(12_000, 6, 4.25)], perTarget: 32, warmup: 3);

        Assert.Equal(4000.0, figures["answersPerSecond"]!.GetValue<double>());
        Assert.Equal(64, figures["connections"]!.GetValue<int>());
        Assert.Equal(4.25, figures["p99Ms"]!.GetValue<double>());
        Assert.Equal(2.0, figures["non2xx"]!.GetValue<double>());
    }

    [Fact]
    public void The_ceiling_counts_bookings_per_second_as_pgbench_timed_its_transactions()
    {
        const string Report = """
            number of failed transactions: 2 (0.100%)
            number of transactions actually processed: 2000
            latency average = 12.500 ms
            tps = 400.000000 (without initial connection time)
            """;

        var figures = Ceiling.Figures(Report, bookings: 60_000, seconds: 5, clients: 16, batch: 32, places: 20, inRange: 1000, durable: true);

        Assert.Equal(12_000.0, figures["bookingsPerSecond"]!.GetValue<double>()); // 400 transactions/s × 30 bookings each
        Assert.Equal(12.5, figures["latencyAverageMs"]!.GetValue<double>());
        Assert.Equal(2.0, figures["failedTransactions"]!.GetValue<double>());
    }

    private static BenchOptions Parse(string[] args, params (string Name, string Value)[] env)
    {
        List<string> errors = [];
        var options = BenchOptions.From(new Args(args), Env(env), errors);
        Assert.Empty(errors);
        return options!;
    }

    private static Func<string, string?> Env(params (string Name, string Value)[] env) =>
        name => env.FirstOrDefault(e => e.Name == name).Value;
}
