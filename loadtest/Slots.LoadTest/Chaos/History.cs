using System.Text.Json;
using System.Text.Json.Serialization;

namespace Slots.LoadTest.Chaos;

/// <summary>What the workload asked for.</summary>
public enum OpKind
{
    Reserve,

    /// <summary>A reserve sent again with the same Idempotency-Key and body.</summary>
    Retry,
    Cancel,
    Reschedule,
    Lookup,
}

/// <summary>What came back: an answer (2xx), a definite refusal (4xx), or nothing we can rely on.</summary>
public enum Outcome
{
    Ok,
    Fail,

    /// <summary>A timeout, a dropped connection or a 5xx: the operation may or may not have taken effect.</summary>
    Unknown,
}

/// <summary>
/// One operation of the history, as a Jepsen-style client records it: invoked at <see cref="InvokeMs"/>,
/// completed at <see cref="CompleteMs"/> (milliseconds since the run started). For reserve and retry the
/// slot is the one asked for; for cancel, reschedule and lookup <see cref="Code"/> names the reservation
/// and the slot is the reschedule's target. <see cref="ResultCode"/> is the code a 201 carried (or an
/// already-booked answer's existing code); a lookup's answer fills the Result slot. <see cref="RetryAfter"/>
/// is true when the answer carried a Retry-After header.
/// </summary>
public sealed record Operation(
    long Id,
    OpKind Kind,
    int Person,
    long InvokeMs,
    long CompleteMs,
    Outcome Outcome,
    int? Status = null,
    string? Problem = null,
    string? Key = null,
    string? Code = null,
    int? PlaceId = null,
    string? Day = null,
    string? Time = null,
    string? ResultCode = null,
    int? ResultPlaceId = null,
    string? ResultDay = null,
    string? ResultTime = null,
    bool? RetryAfter = null)
{
    [JsonIgnore]
    public bool IsReserve => Kind is OpKind.Reserve or OpKind.Retry;

    /// <summary>The slot this operation names, when it names one.</summary>
    [JsonIgnore]
    public SlotRef? Slot => PlaceId is { } p && Day is not null && Time is not null ? new SlotRef(p, Day, SlotRef.MinuteOf(Time)) : null;

    public override string ToString() =>
        $"#{Id} {Kind.ToString().ToLowerInvariant()} person {Person}" +
        (Key is null ? "" : $" key {Key}") + (Code is null ? "" : $" code {Code}") +
        (Slot is { } s ? $" slot {s}" : "") +
        $" at {InvokeMs}..{CompleteMs} ms → {Outcome.ToString().ToLowerInvariant()}" +
        (Status is { } st ? $" {st}" : "") + (Problem is null ? "" : $" {Problem}") + (ResultCode is null ? "" : $" {ResultCode}");
}

/// <summary>
/// A fault the nemesis injected: from <see cref="StartMs"/> (the fault) to <see cref="EndMs"/> (healed).
/// <see cref="KilledAt"/>: for a fault that SIGKILLs processes, the wall-clock time by which the first
/// SIGKILL had been delivered (what a sink line's time is compared with).
/// </summary>
public sealed record Fault(int Number, string Kind, string Target, long StartMs, long EndMs, bool Healed, DateTimeOffset? KilledAt = null);

/// <summary>A slot by place, local day (yyyy-MM-dd) and start minute after local midnight.</summary>
public readonly record struct SlotRef(int PlaceId, string Day, int Minute)
{
    public static int MinuteOf(string time) =>
        (int.Parse(time.AsSpan(0, 2), System.Globalization.CultureInfo.InvariantCulture) * 60) +
        int.Parse(time.AsSpan(3, 2), System.Globalization.CultureInfo.InvariantCulture);

    public override string ToString() => $"{PlaceId}/{Day}/{Minute / 60:00}:{Minute % 60:00}";
}

/// <summary>JSON lines in and out: one operation (or fault) per line.</summary>
public static class HistoryFile
{
    public static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web)
    {
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        Converters = { new JsonStringEnumConverter(JsonNamingPolicy.KebabCaseLower) },
    };

    public static string Line<T>(T value) => JsonSerializer.Serialize(value, Json);

    public static IReadOnlyList<T> Read<T>(string path) =>
        File.Exists(path)
            ? File.ReadLines(path).Where(l => !string.IsNullOrWhiteSpace(l)).Select(l => JsonSerializer.Deserialize<T>(l, Json)!).ToList()
            : [];
}
