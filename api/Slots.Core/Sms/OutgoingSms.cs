namespace Slots.Sms;

/// <summary>One SMS as the sender gets it. <see cref="MessageId"/> is the outbox row id: the idempotency key.</summary>
public sealed record OutgoingSms(long MessageId, string Phone, string Text);
