using System.Text.Json.Serialization;

namespace Slots.Sms;

/// <summary>Source-generated JSON for the SMS event, as the queue carries it.</summary>
[JsonSourceGenerationOptions(System.Text.Json.JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(SmsEvent))]
internal sealed partial class SmsJsonContext : JsonSerializerContext;
