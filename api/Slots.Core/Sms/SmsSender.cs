namespace Slots.Sms;

/// <summary>
/// The port to an SMS gateway. An implementation either hands the SMS over (returns) or throws:
/// <see cref="SmsRejectedException"/> when the gateway refuses it for good (no point retrying),
/// anything else when it may work later.
/// </summary>
public abstract class SmsSender
{
    public abstract Task SendAsync(OutgoingSms sms, CancellationToken ct);
}

/// <summary>The gateway refused this SMS for good (a bad number, say). The message id is the only detail kept.</summary>
public sealed class SmsRejectedException(long messageId, string reason) : Exception($"SMS {messageId} rejected by the gateway: {reason}")
{
    public long MessageId { get; } = messageId;
}

/// <summary>The gateway answered 5xx, 408 or 429: it may work later.</summary>
public sealed class GatewayUnavailableException(int status) : Exception($"SMS gateway answered HTTP {status}")
{
    public int Status { get; } = status;
}
