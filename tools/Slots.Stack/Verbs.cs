using Slots.Topology;
using Slots.Topology.Run;
using LoopbackStack = Slots.Topology.Run.Stack;

namespace Slots.Stack;

/// <summary>The verbs of ./slots stack, each one call on the Stack facade.</summary>
internal static class Verbs
{
    public static async Task<int> RunAsync(string[] args, CancellationToken ct)
    {
        var verb = args.Length > 0 ? args[0] : "help";
        if (verb is "help" or "--help" or "-h")
        {
            Help.Print(Console.Out);
            return 0;
        }

        var fromEnvironment = StackOptions.FromProcessEnvironment(Repository.Root());
        var options = verb == "up" ? ForUp(fromEnvironment, args) : StateFolder.Resolve(fromEnvironment);
        using var stack = await LoopbackStack.OpenAsync(options, Console.WriteLine);
        switch (verb)
        {
            case "up":
                await stack.UpAsync(ct);
                Summary(stack);
                return 0;
            case "down":
                await stack.DownAsync(ct);
                return 0;
            case "status":
                await Status.PrintAsync(stack, Console.Out, ct);
                return 0;
            case "start":
                await stack.StartAsync(Part(args, "start"), ct);
                return 0;
            case "stop":
                await stack.StopAsync(Part(args, "stop"));
                return 0;
            case "pids":
                var pids = await stack.PidsAsync(Part(args, "pids"), ct);
                if (pids is null)
                {
                    return 1;
                }

                Console.WriteLine(string.Join(' ', pids));
                return 0;
            case "primary":
                var primary = await stack.PrimaryAsync(ct);
                if (primary is not null)
                {
                    Console.WriteLine(primary);
                }

                return 0;
            case "pg-stop":
                await stack.PgStopAsync(args.Length > 1 ? args[1] : "fast", ct);
                return 0;
            case "reload-cert":
                await stack.ReloadCertAsync(args.Length > 1 && args[1] == "--renew", ct);
                return 0;
            case "backup":
                await stack.BackupAsync(Option(args, "--type", "full", "usage: ./slots stack backup [--type full|incr]"), ct);
                return 0;
            case "restore":
                await stack.RestoreAsync(
                    Option(args, "--to", null, "usage: ./slots stack restore --to \"2026-11-27 02:10:00+00\" (a moment after the first backup)"), ct);
                return 0;
            case "wipe":
                await stack.WipeAsync(ct);
                return 0;
            default:
                Help.Print(Console.Error);
                return 2;
        }
    }

    /// <summary>`up --ha` (or SLOTS_STACK_HA=1) asks for the HA stack; a state folder that holds one stays HA.</summary>
    private static StackOptions ForUp(StackOptions fromEnvironment, string[] args)
    {
        var ha = args.Skip(1).Contains("--ha") || fromEnvironment.Shape == Shape.Ha
            || StateFolder.Resolve(fromEnvironment).Shape == Shape.Ha;
        return fromEnvironment with { Shape = ha ? Shape.Ha : Shape.Single };
    }

    /// <summary>The value after <paramref name="name"/>, the only option the verb takes; its fallback when absent,
    /// or a usage error when it has none.</summary>
    private static string Option(string[] args, string name, string? fallback, string usage)
    {
        var rest = args.Skip(1).ToArray();
        if (rest.Length == 0 && fallback is not null)
        {
            return fallback;
        }

        return rest.Length == 2 && rest[0] == name && rest[1].Length > 0 ? rest[1] : throw new StackUsageException(usage);
    }

    private static string Part(string[] args, string verb) =>
        args.Length > 1 ? args[1] : throw new StackUsageException($"usage: ./slots stack {verb} PART");

    private static void Summary(LoopbackStack stack)
    {
        var options = stack.Options;
        var endpoints = stack.Topology.Endpoints;
        Console.WriteLine();
        Console.WriteLine($"Slots:           {string.Join(" and ", endpoints.Fronts)}   (HAProxy in front of {options.Apis} API instances)");
        Console.WriteLine(endpoints.CaPath is { } ca
            ? $"Certificate:     from the local CA {ca} (curl --cacert {ca}, or import it into a browser)"
            : $"Certificate:     {options.TlsCert}");
        Console.WriteLine($"PostgreSQL:      psql -h 127.0.0.1 -p {options.Ports.Postgres} -U postgres slots");
        Console.WriteLine($"RabbitMQ:        {endpoints.Amqp}");
        Console.WriteLine($"Logs and PIDs:   {options.Logs}, {options.Pids}       Stop with: ./slots stack down");
    }
}
