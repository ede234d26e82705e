using Slots.Topology.Run;

namespace Slots.Topology.Tests.Run;

public sealed class StateFolderTests : IDisposable
{
    private readonly string _dir = Directory.CreateTempSubdirectory("slots-state-").FullName;

    [Fact]
    public void The_options_up_used_are_read_back_whole_so_the_other_verbs_need_no_flags()
    {
        var options = new StackOptions
        {
            Root = "/repo",
            StateDir = _dir,
            Shape = Shape.Ha,
            Apis = 3,
            Ports = PortPlan.Chaos,
            Wait = TimeSpan.FromSeconds(42),
            AppSettings = new Dictionary<string, string> { ["Slots:RateLimits:WritesPerWindow"] = "7" },
            PostgresFolder = "/var/tmp/pg",
        };

        StateFolder.Save(options);
        var read = StateFolder.Load(_dir)!;

        Assert.Equal(Shape.Ha, read.Shape);
        Assert.Equal(3, read.Apis);
        Assert.Equal(PortPlan.Chaos, read.Ports);
        Assert.Equal(TimeSpan.FromSeconds(42), read.Wait);
        Assert.Equal("7", read.AppSettings["Slots:RateLimits:WritesPerWindow"]);
        Assert.Equal("/var/tmp/pg", read.PgFolder);
        Assert.True(File.Exists(StateFolder.HaMarker(_dir)));
    }

    [Fact]
    public void A_folder_the_scripts_started_reads_as_ha_by_their_marker()
    {
        File.WriteAllText(StateFolder.HaMarker(_dir), "");
        var fromEnvironment = new StackOptions { Root = "/repo", StateDir = _dir };

        Assert.Null(StateFolder.Load(_dir));
        Assert.Equal(Shape.Ha, StateFolder.Resolve(fromEnvironment).Shape);
        Assert.Equal(Shape.Single, StateFolder.Resolve(fromEnvironment with { StateDir = Path.Combine(_dir, "none") }).Shape);
    }

    public void Dispose() => Directory.Delete(_dir, recursive: true);
}
