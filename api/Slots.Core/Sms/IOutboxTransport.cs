namespace Slots.Sms;

/// <summary>What a transport did with one wave of messages.</summary>
/// <param name="Accepted">Ids the broker confirmed (or the sender took, or gave up on): their rows may be marked sent.</param>
/// <param name="Broken">The transport itself failed (broker gone): stop this run and back off.</param>
public sealed record HandOver(IReadOnlyCollection<long> Accepted, Exception? Broken = null);

/// <summary>How many messages a transport takes now.</summary>
/// <param name="Messages">At most this many (int.MaxValue: any number).</param>
/// <param name="Broken">The transport could not be asked (broker gone): the relay backs off as after a broken hand-over.</param>
public readonly record struct TransportRoom(int Messages, Exception? Broken = null)
{
    public static TransportRoom Any => new(int.MaxValue);
}

/// <summary>Where the relay hands messages: RabbitMQ (publisher confirms) or straight to the sender.</summary>
public interface IOutboxTransport
{
    /// <summary>Hands over a wave: at most one message per reservation code, so nothing within a reservation overtakes.</summary>
    Task<HandOver> HandOverAsync(IReadOnlyList<SmsEvent> wave, CancellationToken ct);

    /// <summary>
    /// How many more messages the transport takes now; the relay reads no more rows than that. A broker's queue says how
    /// far it is ahead of its consumers (Slots:Sms:QueueAhead); the direct transport sends as it goes and takes any number.
    /// </summary>
    Task<TransportRoom> RoomAsync(CancellationToken ct);

    /// <summary>Drops the connection, if any, so the next hand-over starts afresh.</summary>
    ValueTask ResetAsync();
}
