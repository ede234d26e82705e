using System.Text.Json;
using System.Text.Json.Serialization;
using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Site;

// What the site's day sends and reads (api/Slots.Api/Staff/StaffDtos.cs).

public sealed record CheckInBody(string Code);

public sealed record RosterCounts(int Booked, int CheckedIn, int NoShow, int Cancelled);

public sealed record RosterPage(int PlaceId, string Day, RosterCounts Counts, int Total);

public sealed record BlockCancelBody(string Day, string Reason);

public sealed record BlockCancelAnswer(long Id, int Cancelled, int Kept, bool Finished);

/// <summary>One timed phase of the site's day: answers, their latency, and the API's CPU per answer.</summary>
public sealed record SitePhase(string Name, int Concurrency, double Seconds, LatencyStats Ok, long NotOk, IReadOnlyDictionary<string, long> Errors,
    IReadOnlyList<ProcessStats> Processes)
{
    public double PerSecond => Seconds > 0 ? Math.Round(Ok.Count / Seconds, 1) : 0;

    /// <summary>CPU of the watched API processes per answer, in µs; null when none was watched or nothing answered.</summary>
    public double? ApiCpuMicrosPerAnswer => ProcessCpu.ApiMicrosPerAnswer(Processes, Ok.Count);
}

/// <summary>
/// A site's day at one place: the day's bookings, the roster read while the door checks them in, each once,
/// and a block cancel of the next day's bookings in one request.
/// </summary>
/// <param name="CheckInWarmups">Check-ins at a place of the warm-up's own before the measured ones, uncounted (0: no warm-up).</param>
public sealed record SiteReport(string Target, string SignIn, int PlaceId, int Booked, SitePhase Roster, SitePhase CheckIn, RosterCounts After,
    int BlockBooked, double BlockMilliseconds, BlockCancelAnswer Block, long CheckInWarmups = 0);

[JsonSourceGenerationOptions(JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(CheckInBody))]
[JsonSerializable(typeof(RosterPage))]
[JsonSerializable(typeof(BlockCancelBody))]
[JsonSerializable(typeof(BlockCancelAnswer))]
internal sealed partial class SiteJson : JsonSerializerContext;
