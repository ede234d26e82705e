using System.Text.Json;
using System.Text.Json.Serialization;

namespace Slots.LoadTest.Room;

// What the waiting-room scenario reads and sends (api/Slots.Api/Contracts/AdmissionDtos.cs, Dtos.cs).

public sealed record NewPlaceBody(string Name, string Address, string Region, string TimeZone, bool Active);

public sealed record CreatedPlace(int Id);

public sealed record TemplateBody(string FirstStart, string LastStart, int IntervalMinutes, int LengthMinutes);

public sealed record GenerateBody(int[] PlaceIds, string From, string To, TemplateBody Template, int Capacity, bool DryRun);

public sealed record GeneratedSlots(int Places, int SlotsCreated, int SlotsExisting, long SeatsCreated);

public sealed record NewOpeningBody(int[] PlaceIds, DateTimeOffset OpensAt, double? AdmitPerSecond, int AdmissionSeconds, int AbandonAllowance);

/// <summary>An opening with its counters, as staff see it.</summary>
public sealed record OpeningBody(long Id, DateTimeOffset OpensAt, string State, long Joined, long? PreQueue, long Served, long SeatsLeft);

public sealed record JoinBody(string NationalId);

/// <summary>Where a token stands: waiting, admitted, no-seats-left, closed or expired.</summary>
public sealed record RoomStatusBody(string State, long OpeningId, long SeatsLeft, int AskAgainSeconds, long? Position, long? Ahead, DateTimeOffset? AdmittedUntil);

public sealed record JoinedBody(string Token, RoomStatusBody Status);

[JsonSourceGenerationOptions(JsonSerializerDefaults.Web, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(NewPlaceBody))]
[JsonSerializable(typeof(CreatedPlace))]
[JsonSerializable(typeof(GenerateBody))]
[JsonSerializable(typeof(GeneratedSlots))]
[JsonSerializable(typeof(NewOpeningBody))]
[JsonSerializable(typeof(OpeningBody))]
[JsonSerializable(typeof(JoinBody))]
[JsonSerializable(typeof(JoinedBody))]
[JsonSerializable(typeof(RoomStatusBody))]
internal sealed partial class RoomJson : JsonSerializerContext;
