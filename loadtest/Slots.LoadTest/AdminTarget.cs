using Slots.LoadTest.Simulation;

namespace Slots.LoadTest;

/// <summary>What the scenarios that make a place of their own read alike: the API, an admin's machine key, and the run's id.</summary>
internal sealed record AdminTarget(Uri Url, string AdminKey, string RunId)
{
    /// <summary>--target, --admin-key and --run-id; null, with the errors added to <paramref name="args"/>, when one is missing or malformed.</summary>
    public static AdminTarget? Read(Args args)
    {
        var target = args.Text("target");
        var adminKey = args.Text("admin-key");
        var runId = args.Text("run-id") ?? SimulationOptions.NewRunId();
        Uri? url = null;
        if (target is null || !Uri.TryCreate(target.Split(',')[0], UriKind.Absolute, out url))
        {
            args.Errors.Add("--target URL is required.");
        }
        if (adminKey is null)
        {
            args.Errors.Add("--admin-key is required: the place and its slots are made by an admin.");
        }
        if (!SimulationOptions.IsRunId(runId))
        {
            args.Errors.Add("--run-id must be 1 to 8 ASCII letters.");
        }
        return url is null || adminKey is null || !SimulationOptions.IsRunId(runId) ? null : new AdminTarget(url, adminKey, runId);
    }
}
