using System.Diagnostics;
using Npgsql;
using Slots.Topology;
using Slots.Topology.Run;
using LoopbackStack = Slots.Topology.Run.Stack;

namespace Slots.LoadTest.Bench;

/// <summary>
/// bench-pitr (./slots bench pitr): RPO and RTO of the point-in-time restore (docs/reliability.md) on a running HA stack
/// (./slots stack up --ha; SLOTS_STACK_DIR names another). Seeds the hot window; times a full backup; RPO: how long a
/// commit waits until its WAL segment is in the repository, right after the load and on a quiet cluster
/// (archive_timeout bounds it); RTO: a mark, the target noted, hot_seats dropped, the cluster restored to the target,
/// timed, and the seats counted again. It adds its places to the stack's database and leaves them there.
/// </summary>
internal static class PitrCommand
{
    private static readonly TimeSpan ArchiveLimit = TimeSpan.FromMinutes(10);

    public static async Task<int> RunAsync(Args args, CancellationToken ct)
    {
        var errors = new List<string>();
        var options = PitrOptions.From(args, errors);
        if (options is null)
        {
            return Cli.Fail(errors);
        }

        await using var host = BenchHost.Open("pitr", CpuSplit.Shared(Environment.ProcessorCount));
        // The stack `up` started, as its state folder describes it; nothing is built again when the restore starts its nodes.
        var stackOptions = StateFolder.Resolve(StackOptions.FromProcessEnvironment(host.Root)) with { Build = false };
        if (stackOptions.Shape != Shape.Ha)
        {
            Console.Error.WriteLine($"bench-pitr runs on the high-availability stack; {stackOptions.StateDir} holds none (./slots stack up --ha).");
            return 2;
        }
        using var stack = await LoopbackStack.OpenAsync(stackOptions, Console.WriteLine);
        try
        {
            return await MeasureAsync(options, stack, new PitrDatabase(stack.Options.Ports.Postgres), ct);
        }
        catch (Exception ex) when (ex is StackStartException or StackUsageException or NpgsqlException)
        {
            Console.Error.WriteLine(ex.Message);
            return 1;
        }
    }

    private static async Task<int> MeasureAsync(PitrOptions options, LoopbackStack stack, PitrDatabase db, CancellationToken ct)
    {
        Console.WriteLine($"Seeding {options.Seeded} seats ({options.PerSlot} a slot)...");
        var clock = Stopwatch.StartNew();
        await db.SeedAsync(options.PerSlot, ct);
        var seeded = clock.Elapsed;
        Console.WriteLine($"  seeded in {PitrOptions.Took(seeded)} s; database {await db.SizeAsync(ct)}");

        // Right after the load, then on a quiet cluster.
        await RecoveryPointAsync(db, "after the load", ct);
        await Task.Delay(TimeSpan.FromSeconds(5), ct);
        await RecoveryPointAsync(db, "quiet cluster", ct);

        // Of what the backup says, its first line (who, how long, where); the repository's listing after it is left out.
        var said = 0;
        using (var backup = await LoopbackStack.OpenAsync(stack.Options, line =>
        {
            if (said++ == 0)
            {
                Console.WriteLine(line);
            }
        }))
        {
            clock.Restart();
            await backup.BackupAsync("full", ct);
            Console.WriteLine($"  full backup: {PitrOptions.Took(clock.Elapsed)} s");
        }

        var target = await db.MarkAsync(ct);
        await Task.Delay(TimeSpan.FromSeconds(1.1), ct);
        var before = await db.HotSeatsAsync(ct);
        await db.DropHotSeatsAsync(ct);
        clock.Restart();
        await stack.RestoreAsync(target, ct);
        var restored = clock.Elapsed;
        var after = await db.HotSeatsAsync(ct);
        Console.WriteLine($"RTO: restore to {target} took {PitrOptions.Took(restored)} s (the restore's own figures above); hot_seats {before} before the drop, {after} after the restore");
        if (before != after)
        {
            Console.Error.WriteLine("hot_seats differ after the restore");
            return 1;
        }
        return 0;
    }

    private static async Task RecoveryPointAsync(PitrDatabase db, string when, CancellationToken ct)
    {
        var waited = await db.RecoveryPointAsync(ArchiveLimit, ct);
        Console.WriteLine($"  RPO ({when}): the commit's WAL was in the repository {PitrOptions.Took(waited)} s later");
    }
}
