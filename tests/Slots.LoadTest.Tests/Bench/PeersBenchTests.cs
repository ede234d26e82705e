using Slots.LoadTest.Bench;

namespace Slots.LoadTest.Tests.Bench;

public sealed class PeersBenchTests
{
    private static PeersOptions? Options(string[] args, Dictionary<string, string>? env, List<string> errors) =>
        PeersOptions.From(new Args(args), name => env?.GetValueOrDefault(name), errors);

    [Fact]
    public void Without_options_the_shipped_limit_of_20_writes_per_10_s_is_measured_from_port_18600()
    {
        var options = Options([], null, []);

        Assert.Equal(new PeersOptions(20, 10, 18600), options);
    }

    [Fact]
    public void SLOTS_RATE_WRITES_sets_the_limit_and_writes_overrides_it()
    {
        var env = new Dictionary<string, string> { ["SLOTS_RATE_WRITES"] = "30", ["SLOTS_PEERS_FIRST_PORT"] = "29600" };

        Assert.Equal(new PeersOptions(30, 10, 29600), Options([], env, []));
        Assert.Equal(new PeersOptions(5, 3, 29600), Options(["--writes", "5", "--seconds", "3"], env, []));
    }

    [Fact]
    public void An_unknown_option_or_a_knob_that_is_no_port_is_refused()
    {
        var errors = new List<string>();

        var options = Options(["--write", "5"], new() { ["SLOTS_PEERS_FIRST_PORT"] = "99999" }, errors);

        Assert.Null(options);
        Assert.Contains(errors, e => e.Contains("--write", StringComparison.Ordinal));
        Assert.Contains(errors, e => e.Contains("SLOTS_PEERS_FIRST_PORT", StringComparison.Ordinal));
    }

    [Fact]
    public void Each_node_binds_its_own_front_and_stats_and_both_name_the_same_peers_and_the_absent_api()
    {
        var options = new PeersOptions(20, 10, 18600);

        var first = options.NodeEnvironment(1, "/tmp/tls/server.pem");
        var second = options.NodeEnvironment(2, "/tmp/tls/server.pem");

        Assert.Equal("127.0.0.1:18600", first["SLOTS_FRONT_BIND"]);
        Assert.Equal("127.0.0.1:18602", first["SLOTS_STATS_BIND"]);
        Assert.Equal("127.0.0.1:18601", second["SLOTS_FRONT_BIND"]);
        Assert.Equal("127.0.0.1:18603", second["SLOTS_STATS_BIND"]);
        foreach (var node in new[] { first, second })
        {
            Assert.Equal("127.0.0.1:18604", node["SLOTS_PEER_1"]);
            Assert.Equal("127.0.0.1:18605", node["SLOTS_PEER_2"]);
            Assert.Equal("127.0.0.1:18606", node["SLOTS_API_1"]);
            Assert.Equal("10", node["SLOTS_RATE_PERIOD_S"]);
            Assert.Equal("20", node["SLOTS_RATE_WRITES"]);
            Assert.Equal("/tmp/tls/server.pem", node["SLOTS_TLS_CERT"]);
        }
    }

    [Fact]
    public void The_counters_are_left_two_periods_and_a_second_to_expire_between_ways() =>
        Assert.Equal(TimeSpan.FromSeconds(21), new PeersOptions(20, 10, 18600).Calm);

    [Fact]
    public void The_figures_print_each_way_as_a_multiple_of_the_limit()
    {
        var lines = new PeersFigures(20, 10, 20, 21, 25).Lines().ToList();

        Assert.Equal(
            [
                "limit per node: 20 writes per 10s, one client address",
                "  one node:      20 admitted",
                "  alternating:   21 admitted (1.05 x the limit)",
                "  both at once:  25 admitted (1.25 x the limit)",
            ],
            lines);
    }

    [Fact]
    public void The_results_file_keeps_the_names_the_script_wrote() =>
        Assert.Equal(
            """{"limitPerNode":20,"periodSeconds":10,"oneNode":20,"alternating":21,"bothAtOnce":24}""",
            new PeersFigures(20, 10, 20, 21, 24).ToJson());
}
