using System.Text.Json.Serialization;

namespace Slots.Sms.Gateway;

/// <summary>Source-generated JSON for what the senders write: the gateway's body and the development sink's lines.</summary>
[JsonSourceGenerationOptions(System.Text.Json.JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(GatewayRequest))]
[JsonSerializable(typeof(FileSinkLine))]
internal sealed partial class GatewayJsonContext : JsonSerializerContext;
