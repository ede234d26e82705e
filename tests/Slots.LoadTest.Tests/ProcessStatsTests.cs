using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Tests;

public sealed class ProcessStatsTests
{
    // Regression: the CPU was rounded to 0.1 s and its share of a core to 0.01, so the finder's polling above the API's
    // idle (1.04 s over 65 s against 0.20 s over 20.5 s: 0.0062 cores) read 0.02 - 0.01 = 0.01 cores, 2.3 % of the
    // stampede's 0.44 cores where it was 1.4 %.
    [Fact]
    public void The_cpu_keeps_the_kernel_s_tick_and_a_small_difference_of_shares_survives()
    {
        var polling = ProcessStats.Of("api", 1, "dotnet", [300.0, 310.0], cpuSeconds: 1.04, seconds: 65);
        var idle = ProcessStats.Of("api", 1, "dotnet", [300.0], cpuSeconds: 0.20, seconds: 20.5);

        Assert.Equal(1.04, polling.CpuSeconds);
        Assert.Equal(0.016, polling.CpuCoreShare);
        Assert.Equal(0.0062, polling.CpuCoreShare - idle.CpuCoreShare, 4);
        Assert.Equal(310.0, polling.MaxRssMb);
        Assert.Equal(305.0, polling.AvgRssMb);
        Assert.Equal(2, polling.Samples);
    }
}
