using System.Globalization;
using System.Text.Json;

namespace Slots.LoadTest.Bench;

/// <summary>
/// Writes admitted in one rate period from one client address, three ways: all to one node, alternating between the two,
/// and both nodes at once. Written as loadtest/results/peers/peers.json with these names.
/// </summary>
internal sealed record PeersFigures(int LimitPerNode, int PeriodSeconds, int OneNode, int Alternating, int BothAtOnce)
{
    public const string ResultsFile = "loadtest/results/peers/peers.json";

    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    public string ToJson() => JsonSerializer.Serialize(this, Json);

    /// <summary>What the run prints: each way's admitted writes, and how many times the one node's limit that is.</summary>
    public IEnumerable<string> Lines()
    {
        yield return $"limit per node: {LimitPerNode} writes per {PeriodSeconds}s, one client address";
        yield return $"  one node:      {OneNode} admitted";
        yield return $"  alternating:   {Alternating} admitted ({TimesTheLimit(Alternating)} x the limit)";
        yield return $"  both at once:  {BothAtOnce} admitted ({TimesTheLimit(BothAtOnce)} x the limit)";
    }

    private string TimesTheLimit(int admitted) => ((double)admitted / LimitPerNode).ToString("0.00", CultureInfo.InvariantCulture);
}
