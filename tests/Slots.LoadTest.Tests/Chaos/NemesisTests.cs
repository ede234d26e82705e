using System.Diagnostics;
using Slots.LoadTest.Chaos;

namespace Slots.LoadTest.Tests.Chaos;

public sealed class NemesisTests
{
    /// <summary>
    /// The quick soak's api2 "not healthy after 90 s": restarted 0.3 s after its SIGKILL, it was still a
    /// zombie (kill -0 succeeds on one), so the restart found it "already running" and started nothing.
    /// </summary>
    [Fact]
    public async Task A_killed_process_not_yet_reaped_counts_as_gone()
    {
        if (!OperatingSystem.IsLinux())
        {
            Assert.Skip("reads /proc");
        }
        // A zombie seen once is the case. Should the child vanish instead (reaped: its parent was gone before the kill),
        // the case did not happen in that try and it is made again; three tries without one fail.
        for (var attempt = 1; attempt <= 3; attempt++)
        {
            if (await ZombieCountedGoneAsync())
            {
                Assert.False(Nemesis.Running("999999999")); // and one that is gone altogether
                return;
            }
        }
        Assert.Fail("in three tries the killed child never stayed a zombie");
    }

    /// <summary>
    /// A child whose parent never reaps it, killed, and read by <see cref="Nemesis.Running"/> once /proc shows it a
    /// zombie: true then (the assertion held); false when it vanished before (reaped after all).
    /// </summary>
    private static async Task<bool> ZombieCountedGoneAsync()
    {
        // The shell starts a child and becomes `sleep 30`, which never reaps it: once killed, the child stays a zombie.
        var start = new ProcessStartInfo("sh", ["-c", "sleep 60 & echo $!; exec sleep 30"]) { RedirectStandardOutput = true };
        using var parent = Process.Start(start)!;
        try
        {
            var child = (await parent.StandardOutput.ReadLineAsync())!.Trim();
            Assert.True(Nemesis.Running(child));

            Process.GetProcessById(int.Parse(child, System.Globalization.CultureInfo.InvariantCulture)).Kill();
            var limit = Stopwatch.StartNew();
            while (true)
            {
                string stat;
                try
                {
                    stat = File.ReadAllText($"/proc/{child}/stat");
                }
                catch (IOException)
                {
                    return false;
                }
                if (stat.Contains(") Z", StringComparison.Ordinal))
                {
                    Assert.False(Nemesis.Running(child));
                    return true;
                }
                Assert.True(limit.Elapsed < TimeSpan.FromSeconds(10), "the killed child did not become a zombie");
                await Task.Delay(20);
            }
        }
        finally
        {
            parent.Kill(entireProcessTree: true);
        }
    }

    [Fact]
    public void The_high_availability_plan_meets_every_node_fault_in_each_block_and_names_real_nodes()
    {
        var plan = Nemesis.Plan(seed: 5, faults: Nemesis.HaKinds.Length * 2, apiCount: 2, schedulerCount: 2, quick: true, ha: true);

        foreach (var block in plan.Chunk(Nemesis.HaKinds.Length))
        {
            Assert.Equal(Nemesis.HaKinds.Order(), block.Select(f => f.Kind).Order());
        }
        Assert.All(plan.Where(f => Nemesis.IsPrimarySwitch(f.Kind)), f => Assert.Equal("primary", f.Target));
        Assert.All(plan.Where(f => f.Kind == "rabbitmq-node-kill"), f => Assert.Matches("^rabbitmq[1-3]$", f.Target));
        Assert.All(plan.Where(f => f.Kind == "haproxy-kill"), f => Assert.Matches("^haproxy[12]$", f.Target));
        Assert.All(plan.Where(f => f.Kind == "etcd-restart"), f => Assert.Matches("^etcd[1-3]$", f.Target));
        // The single-node parts do not exist in the high-availability stack.
        Assert.DoesNotContain(plan, f => f.Target is "postgres" or "rabbitmq");
        Assert.Equal(plan, Nemesis.Plan(seed: 5, faults: Nemesis.HaKinds.Length * 2, apiCount: 2, schedulerCount: 2, quick: true, ha: true));
    }
}
