using Slots.Stack;
using Slots.Topology.Run;

// Exit codes: 0 done, 1 a part could not start or is not running, 2 a wrong request.
try
{
    return await Verbs.RunAsync(args, CancellationToken.None);
}
catch (StackUsageException ex)
{
    await Console.Error.WriteLineAsync(ex.Message);
    return 2;
}
catch (ArgumentException ex)
{
    await Console.Error.WriteLineAsync(ex.Message);
    return 2;
}
catch (StackStartException ex)
{
    await Console.Error.WriteLineAsync("  " + ex.Message);
    return 1;
}
