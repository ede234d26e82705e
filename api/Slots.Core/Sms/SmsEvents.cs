using System.Text.Json.Serialization;
using Slots.Storage;

namespace Slots.Sms;

/// <summary>
/// What a queue message carries: what the text needs and no more. The phone is there because
/// the SMS goes to it; no name, no national id. Day and time are the place's local ones.
/// </summary>
[JsonPolymorphic(TypeDiscriminatorPropertyName = "kind")]
[JsonDerivedType(typeof(SlotReserved), "reserved")]
[JsonDerivedType(typeof(ReservationCancelled), "cancelled")]
[JsonDerivedType(typeof(ReservationRescheduled), "rescheduled")]
public abstract record SmsEvent(long Id, string Code, string Phone, string Language, string Place, DateOnly Date, TimeOnly Time)
{
    [JsonIgnore]
    public abstract ChangeKind Kind { get; }

    public static SmsEvent From(ChangeKind kind, long id, string code, string phone, string language, string place, DateOnly date, TimeOnly time) =>
        kind switch
        {
            ChangeKind.Reserved => new SlotReserved(id, code, phone, language, place, date, time),
            ChangeKind.Cancelled => new ReservationCancelled(id, code, phone, language, place, date, time),
            ChangeKind.Rescheduled => new ReservationRescheduled(id, code, phone, language, place, date, time),
            _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "Unknown change kind in the outbox"),
        };
}

public sealed record SlotReserved(long Id, string Code, string Phone, string Language, string Place, DateOnly Date, TimeOnly Time)
    : SmsEvent(Id, Code, Phone, Language, Place, Date, Time)
{
    [JsonIgnore]
    public override ChangeKind Kind => ChangeKind.Reserved;
}

public sealed record ReservationCancelled(long Id, string Code, string Phone, string Language, string Place, DateOnly Date, TimeOnly Time)
    : SmsEvent(Id, Code, Phone, Language, Place, Date, Time)
{
    [JsonIgnore]
    public override ChangeKind Kind => ChangeKind.Cancelled;
}

public sealed record ReservationRescheduled(long Id, string Code, string Phone, string Language, string Place, DateOnly Date, TimeOnly Time)
    : SmsEvent(Id, Code, Phone, Language, Place, Date, Time)
{
    [JsonIgnore]
    public override ChangeKind Kind => ChangeKind.Rescheduled;
}

/// <summary>One SMS as the sender gets it. <see cref="MessageId"/> is the outbox row id: the idempotency key.</summary>
public sealed record OutgoingSms(long MessageId, string Phone, string Text);

[JsonSourceGenerationOptions(System.Text.Json.JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(SmsEvent))]
[JsonSerializable(typeof(GatewayRequest))]
[JsonSerializable(typeof(FileSinkLine))]
internal sealed partial class SmsJsonContext : JsonSerializerContext;

/// <summary>The gateway's request body.</summary>
internal sealed record GatewayRequest(string To, string Text, string Reference);

/// <summary>One line of the development sink.</summary>
internal sealed record FileSinkLine(long Id, string To, string Text, DateTimeOffset At);
