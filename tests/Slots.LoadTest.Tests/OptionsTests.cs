using Slots.LoadTest.Reporting;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Tests;

public sealed class OptionsTests
{
    [Theory]
    [InlineData("http://127.0.0.1:5080", true)]
    [InlineData("http://127.0.0.9:80", true)]
    [InlineData("http://localhost:5080", true)]
    [InlineData("http://10.0.0.1:5080", false)]
    [InlineData("http://example.com", false)]
    // The stack behind HAProxy speaks HTTPS only (#39): a loopback https:// target is the stack's front.
    [InlineData("https://127.0.0.1:8443", true)]
    [InlineData("https://10.0.0.1:8443", false)]
    [InlineData("ftp://127.0.0.1:21", false)]
    [InlineData("http://[::1]:5080", false)]
    public void Only_http_or_https_on_ipv4_loopback_is_a_target(string url, bool allowed) =>
        Assert.Equal(allowed, SimulationOptions.IsLoopback(new Uri(url)));

    [Fact]
    public void A_non_loopback_target_is_refused_with_the_reason()
    {
        var args = new Args(["--target", "http://192.168.1.10:80"]);

        SimulationOptions.From(args);

        Assert.Contains(args.Errors, e => e.Contains("loopback", StringComparison.Ordinal));
    }

    [Fact]
    public void The_step_is_a_multiple_of_capacity_unless_given_as_a_rate()
    {
        var options = SimulationOptions.From(new Args(["--target", "http://127.0.0.1:1", "--capacity", "150", "--step-factor", "20"]))!;

        Assert.Equal(3000, options.Arrivals.StepRate);
    }

    [Fact]
    public void Birth_years_give_the_crowd_valid_birth_numbers_and_a_bad_spread_is_an_error()
    {
        var options = SimulationOptions.From(new Args(["--target", "http://127.0.0.1:1", "--birth-years", "1954-1963"]))!;

        Assert.NotNull(options.BirthNumbers);
        Assert.Equal(new DateOnly(1963, 12, 31), options.BirthNumbers.CutOff);
        var born = Slots.Eligibility.BirthNumber.BirthDate(options.BirthNumbers.For(12_345));
        Assert.InRange(born!.Value, new DateOnly(1954, 1, 1), new DateOnly(1963, 12, 31));
        Assert.Null(SimulationOptions.From(new Args(["--target", "http://127.0.0.1:1"]))!.BirthNumbers);

        var bad = new Args(["--target", "http://127.0.0.1:1", "--birth-years", "1940-1950"]);
        SimulationOptions.From(bad);
        Assert.Contains(bad.Errors, e => e.Contains("--birth-years", StringComparison.Ordinal));
    }

    [Fact]
    public void Unknown_and_out_of_bounds_options_are_errors()
    {
        var args = new Args(["--target", "http://127.0.0.1:1", "--duration", "100000", "--users-typo", "5"]);

        SimulationOptions.From(args);
        args.RejectUnknown();

        Assert.Contains(args.Errors, e => e.Contains("--duration", StringComparison.Ordinal));
        Assert.Contains(args.Errors, e => e.Contains("--users-typo", StringComparison.Ordinal));
    }

    [Fact]
    public void Source_addresses_run_from_127_0_0_2_to_127_0_0_254()
    {
        Assert.Equal("127.0.0.2", SourceAddresses.Address(0).ToString());
        Assert.Equal("127.0.0.254", SourceAddresses.Address(SimulationOptions.MaxSources - 1).ToString());
    }

    [Fact]
    public void Resident_memory_is_read_from_the_vmrss_line() =>
        Assert.Equal(123456, ProcessSampler.ParseVmRss(["Name:\tdotnet", "VmPeak:\t  999999 kB", "VmRSS:\t  123456 kB", "Threads:\t12"]));

    [Fact]
    public void Cpu_ticks_and_parent_are_read_past_a_process_name_with_spaces_and_parentheses()
    {
        const string stat = "4242 (postgres: slots (x)) S 4100 4100 4100 0 -1 4194560 830 0 0 0 1234 567 0 0 20 0 1 0 12345 2000000 500 18446744073709551615";

        var parsed = ProcessSampler.ParseStat(stat);

        Assert.Equal((4100, 1234L + 567L), parsed);
        Assert.Null(ProcessSampler.ParseStat("garbage"));
    }

    [Fact]
    public void Popular_places_are_picked_most_often_and_the_first_most_of_all()
    {
        var table = Catalog.Cumulative(5);
        var random = new Random(11);
        var counts = new int[5];
        for (var i = 0; i < 20_000; i++)
        {
            counts[Catalog.Zipf(random, table)]++;
        }

        Assert.True(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > counts[4], string.Join(",", counts));
        Assert.InRange(counts[0] / 20_000.0, 0.38, 0.49); // 1 / (1 + 1/2 + 1/3 + 1/4 + 1/5) ≈ 0.44
    }
}
