using System.Globalization;
using Slots.Topology;
using Slots.Topology.Run;

namespace Slots.LoadTest.Bench;

/// <summary>
/// The benchmark's own PostgreSQL on huge pages, as a database server is tuned for production: each backend maps the
/// shared buffers, and with 4 kB pages every backend pays a page fault the first time it touches each page, which the
/// hot path's random reads (codes, keys, persons) keep doing across 80 pooled connections. With 2 MB pages a backend
/// maps them in a few hundred faults. Reserved for the run (vm.nr_hugepages, as root) and given back when the server
/// stops; SLOTS_BENCH_HUGE_PAGES=0 leaves the machine's setting alone.
/// </summary>
internal sealed class HugePages
{
    private const string Reservation = "/proc/sys/vm/nr_hugepages";
    private readonly long _before;
    private readonly long _during;

    private HugePages(long before, long during)
    {
        _before = before;
        _during = during;
    }

    /// <summary>
    /// Reserves what the server started with <paramref name="settings"/> on <paramref name="data"/> needs; null with the
    /// reason on the console where it cannot (not Linux, not root, the memory not free), and the server starts as before.
    /// </summary>
    public static async Task<HugePages?> ReserveAsync(string bin, string data, IReadOnlyList<string> settings)
    {
        if (!OperatingSystem.IsLinux() || Environment.UserName != "root" || !File.Exists(Reservation))
        {
            Console.WriteLine("PostgreSQL on 4 kB pages: reserving huge pages needs root on Linux");
            return null;
        }
        var asked = await Tool.TryRunAsync(new Command(Path.Combine(bin, "postgres"),
            ["-D", data, .. settings.SelectMany(s => new[] { "-c", s }), "-C", "shared_memory_size_in_huge_pages"], [], RunAs: RunAs.Postgres),
            TimeSpan.FromSeconds(30));
        if (asked.Code != 0 || !long.TryParse(asked.Stdout.Trim(), NumberStyles.Integer, CultureInfo.InvariantCulture, out var needed) || needed <= 0)
        {
            Console.WriteLine($"PostgreSQL on 4 kB pages: the server did not say how many huge pages it needs ({asked.Stderr.Trim()})");
            return null;
        }
        var meminfo = await File.ReadAllTextAsync("/proc/meminfo");
        var before = Field(meminfo, "HugePages_Total");
        var target = Target(before, Available(meminfo), needed);
        if (target != before && !await TryReserveAsync(target))
        {
            Console.WriteLine($"PostgreSQL on 4 kB pages: {Reservation} cannot be written here (a container's read-only /proc?)");
            return null;
        }
        var free = Available(await File.ReadAllTextAsync("/proc/meminfo"));
        if (free < needed)
        {
            await TryReserveAsync(before);
            Console.WriteLine($"PostgreSQL on 4 kB pages: {needed} huge pages asked for, {free} free after reserving");
            return null;
        }
        Console.WriteLine($"PostgreSQL on huge pages: {needed} of 2 MB (the machine's reservation {before} → {target} while it runs)");
        return new HugePages(before, target);
    }

    /// <summary>Gives the reservation back as it was before the run.</summary>
    public Task ReleaseAsync() => _during == _before ? Task.CompletedTask : TryReserveAsync(_before);

    private static async Task<bool> TryReserveAsync(long pages)
    {
        try
        {
            await File.WriteAllTextAsync(Reservation, pages.ToString(CultureInfo.InvariantCulture));
            return true;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <summary>The reservation that leaves <paramref name="needed"/> pages free beside what others hold.</summary>
    internal static long Target(long total, long free, long needed) => free >= needed ? total : total + needed - free;

    /// <summary>Huge pages neither in use nor promised to a mapping (another server's shared memory not yet touched).</summary>
    internal static long Available(string meminfo) => Field(meminfo, "HugePages_Free") - Field(meminfo, "HugePages_Rsvd");

    /// <summary>A count from /proc/meminfo (0 when the line is missing).</summary>
    internal static long Field(string meminfo, string name) =>
        meminfo.Split('\n').FirstOrDefault(l => l.StartsWith(name + ":", StringComparison.Ordinal)) is { } line
        && long.TryParse(line[(name.Length + 1)..].Trim().Split(' ')[0], NumberStyles.Integer, CultureInfo.InvariantCulture, out var v) ? v : 0;
}
