using System.Text.Json.Serialization;

namespace Slots.Sms;

/// <summary>Source-generated JSON for what SMS code writes: queue messages, the gateway's body, the development sink's lines.</summary>
[JsonSourceGenerationOptions(System.Text.Json.JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(SmsEvent))]
[JsonSerializable(typeof(GatewayRequest))]
[JsonSerializable(typeof(FileSinkLine))]
internal sealed partial class SmsJsonContext : JsonSerializerContext;
