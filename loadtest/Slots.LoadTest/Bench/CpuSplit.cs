namespace Slots.LoadTest.Bench;

/// <summary>
/// Where the benchmark's processes run: shared (every process on every CPU), or split (--split-cpus): the stack (the
/// database, the APIs, HAProxy, RabbitMQ) on the lower half of the CPUs and the load's tools (the generator, wrk,
/// pgbench's clients) on the upper half, at least one each, through taskset; so the latencies measured are the
/// server's, not the generator's own queue's.
/// </summary>
internal sealed record CpuSplit(IReadOnlyList<string> Stack, IReadOnlyList<string> Generator, string Text)
{
    public static CpuSplit Shared(int cpus) => new([], [], $"shared: the generator, wrk and pgbench on the same {cpus} CPUs as the stack");

    /// <summary>The split of <paramref name="cpus"/> CPUs; null when there are fewer than two.</summary>
    public static CpuSplit? Split(int cpus, string stackParts)
    {
        if (cpus < 2)
        {
            return null;
        }
        var stack = cpus < 4 ? "0" : $"0-{cpus / 2 - 1}";
        var generator = cpus < 4 ? $"{cpus / 2}" : $"{cpus / 2}-{cpus - 1}";
        return new(["taskset", "-c", stack], ["taskset", "-c", generator],
            $"split: the stack ({stackParts}) on CPU {stack}, the generator, wrk and pgbench on CPU {generator} (taskset)");
    }
}
