namespace Slots.Sms;

/// <summary>What a transport did with one wave of messages.</summary>
/// <param name="Accepted">Ids the broker confirmed (or the sender took, or gave up on): their rows may be marked sent.</param>
/// <param name="Broken">The transport itself failed (broker gone): stop this run and back off.</param>
public sealed record HandOver(IReadOnlyCollection<long> Accepted, Exception? Broken = null);

/// <summary>Where the relay hands messages: RabbitMQ (publisher confirms) or straight to the sender.</summary>
public interface IOutboxTransport
{
    /// <summary>Hands over a wave: at most one message per reservation code, so nothing within a reservation overtakes.</summary>
    Task<HandOver> HandOverAsync(IReadOnlyList<SmsEvent> wave, CancellationToken ct);

    /// <summary>Drops the connection, if any, so the next hand-over starts afresh.</summary>
    ValueTask ResetAsync();
}
