using Slots.Topology.Run;
using Repository = Slots.Testing.Repository;

namespace Slots.Topology.Tests.Run;

/// <summary>The parsers on answers captured from a running HA stack (`Slots.Stack up --ha`, 2 APIs, 3 Patroni nodes):
/// haproxy1's /stats;csv and pg1's Patroni /cluster, kept in Samples/.</summary>
public sealed class ParserTests
{
    private static string Sample(string name) => File.ReadAllText(Path.Combine(Repository.Root, "tests", "Slots.Topology.Tests", "Run", "Samples", name));

    [Fact]
    public void Stats_csv_lists_each_backends_servers_with_their_status_and_no_summary_rows()
    {
        var servers = HaproxyStats.Parse(Sample("haproxy-ha-stats.csv"));

        Assert.Equal(
            ["api/api1 UP", "api/api2 UP", "postgres/pg1 UP", "postgres/pg2 DOWN", "postgres/pg3 DOWN"],
            servers.Select(s => $"{s.Backend}/{s.Name} {s.Status}"));
        Assert.Equal(["pg1"], HaproxyStats.Up(servers, "postgres"));
    }

    [Fact]
    public void Stats_health_wants_every_api_server_up_but_one_postgres_server()
    {
        var servers = HaproxyStats.Parse(Sample("haproxy-ha-stats.csv"));

        Assert.True(HaproxyStats.Satisfies(servers, new Health.HaproxyUp(1, "api", 2)));
        Assert.False(HaproxyStats.Satisfies(servers, new Health.HaproxyUp(1, "api", 3)));
        Assert.True(HaproxyStats.Satisfies(servers, new Health.HaproxyUp(1, "postgres", 1)));
        Assert.False(HaproxyStats.Satisfies(servers, new Health.HaproxyUp(1, "postgres", 2)));
        var apiDown = servers.Select(s => s.Name == "api2" ? s with { Status = "DOWN 1/2" } : s).ToList();
        Assert.False(HaproxyStats.Satisfies(apiDown, new Health.HaproxyUp(1, "api", 2)));
    }

    [Fact]
    public void Patroni_cluster_names_the_leader_the_synchronous_standby_and_each_lag()
    {
        var members = PatroniCluster.Parse(Sample("patroni-cluster.json"));

        Assert.Equal(["pg1 leader running 0", "pg2 sync_standby running 0", "pg3 replica running 0"],
            members.Select(m => $"{m.Name} {m.Role} {m.State} {m.Lag}"));
        Assert.Equal("pg1", PatroniCluster.Leader(members));
        Assert.True(PatroniCluster.Synced(members));
    }

    [Fact]
    public void Patroni_cluster_without_a_serving_synchronous_standby_is_not_synced()
    {
        var members = PatroniCluster.Parse(Sample("patroni-cluster.json"));
        var standbyStopped = members.Select(m => m.Role == "sync_standby" ? m with { State = "stopped" } : m).ToList();
        var noLeader = members.Where(m => m.Role != "leader").ToList();

        Assert.False(PatroniCluster.Synced(standbyStopped));
        Assert.False(PatroniCluster.Synced(noLeader));
        Assert.Null(PatroniCluster.Leader(noLeader));
        Assert.Empty(PatroniCluster.Parse("{\"scope\": \"slots\"}"));
    }

    [Fact]
    public void Rabbit_cluster_status_counts_the_running_nodes()
    {
        Assert.Equal(3, Rabbit.RunningNodes("""{"running_nodes": ["slots-ha-1@localhost", "slots-ha-2@localhost", "slots-ha-3@localhost"]}"""));
        Assert.Equal(0, Rabbit.RunningNodes("{}"));
        Assert.Null(Rabbit.RunningNodes("Error: unable to perform an operation on node"));
    }
}
