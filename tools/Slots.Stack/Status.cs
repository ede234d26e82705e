using Slots.Topology.Run;
using LoopbackStack = Slots.Topology.Run.Stack;

namespace Slots.Stack;

/// <summary>`status`: each part, its PID, whether it runs and what its health check says.</summary>
internal static class Status
{
    public static async Task PrintAsync(LoopbackStack stack, TextWriter output, CancellationToken ct)
    {
        var ha = stack.Options.Shape == Slots.Topology.Shape.Ha;
        await output.WriteLineAsync($"{(ha ? "High-availability stack" : "Stack")} in {stack.Options.StateDir}");
        await output.WriteLineAsync(Line("PART", "PID", "STATE", "HEALTH"));
        foreach (var part in await stack.StatusAsync(ct))
        {
            var health = part.Healthy ? "healthy" : "not healthy";
            await output.WriteLineAsync(Line(part.Part, part.Pid?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "-",
                part.Up ? "up" : "down", $"{health}, {part.Detail}"));
        }

        await output.WriteLineAsync();
        await output.WriteLineAsync("Key figures (each process's /metrics, counted since it started)");
        foreach (var (part, figures) in await stack.FiguresAsync(ct))
        {
            await output.WriteLineAsync($"  {part}: {figures}");
        }
    }

    private static string Line(string part, string pid, string state, string health) =>
        $"  {part,-10} {pid,-8} {state,-7} {health}";
}
