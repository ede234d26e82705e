using Slots.LoadTest.Bench;

namespace Slots.LoadTest.Tests.Bench;

/// <summary>What the benchmark reserves for its PostgreSQL's shared memory, read from /proc/meminfo's lines.</summary>
public sealed class HugePagesTests
{
    private const string Meminfo = """
        MemTotal:       24576000 kB
        HugePages_Total:     300
        HugePages_Free:      278
        HugePages_Rsvd:      257
        HugePages_Surp:        0
        Hugepagesize:       2048 kB
        """;

    [Fact]
    public void Pages_promised_to_another_mapping_are_not_available()
    {
        Assert.Equal(300, HugePages.Field(Meminfo, "HugePages_Total"));
        Assert.Equal(21, HugePages.Available(Meminfo));
        Assert.Equal(0, HugePages.Field(Meminfo, "HugePages_Missing"));
    }

    [Theory]
    [InlineData(0, 0, 278, 278)]     // none reserved: exactly what the server needs
    [InlineData(300, 21, 278, 557)]  // another server holds most of them: added beside it
    [InlineData(600, 400, 278, 600)] // enough free already: left as it is
    public void The_reservation_leaves_what_the_server_needs_free(long total, long available, long needed, long target)
    {
        Assert.Equal(target, HugePages.Target(total, available, needed));
    }
}
