using RabbitMQ.Client;

namespace Slots.Sms.RabbitMq;

/// <summary>A message in the dead-letter queue, as a person inspecting it sees it: no phone number.</summary>
public sealed record DeadLetter(string MessageId, string? Kind, string? Code, int Tries, string? Error);

/// <summary>
/// The dead-letter queue for people: list what is there, and replay messages (all, or by message
/// id) to the work queue with their try count reset. A replayed message that was sent meanwhile
/// is still sent once: the consumer checks sms_sent first.
/// </summary>
public sealed class SmsDeadLetters(SmsBroker broker)
{
    /// <summary>Up to <paramref name="max"/> messages, oldest first; they stay in the queue.</summary>
    public async Task<IReadOnlyList<DeadLetter>> ListAsync(int max, CancellationToken ct)
    {
        await using var connection = await broker.ConnectAsync("slots-sms-dead-letters", ct);
        await using var channel = await connection.CreateChannelAsync(cancellationToken: ct);
        await broker.DeclareAsync(channel, ct);
        var found = new List<DeadLetter>();
        // Fetched without ack; closing the channel puts every one of them back.
        while (found.Count < max && await channel.BasicGetAsync(broker.DeadQueue, autoAck: false, ct) is { } got)
        {
            var message = SmsBroker.Read(got.Body);
            found.Add(new DeadLetter(got.BasicProperties.MessageId ?? "", message is null ? null : SmsBroker.KindName(message),
                message?.Code, SmsBroker.TryOf(got.BasicProperties), SmsBroker.ErrorOf(got.BasicProperties)));
        }
        await channel.CloseAsync(ct);
        return found;
    }

    /// <summary>Moves dead letters back to the work queue (those with the given ids, or all when none given). Returns how many.</summary>
    public async Task<int> ReplayAsync(IReadOnlyCollection<string> messageIds, CancellationToken ct)
    {
        await using var connection = await broker.ConnectAsync("slots-sms-dead-letters", ct);
        await using var channel = await connection.CreateChannelAsync(new CreateChannelOptions(true, true), ct);
        await broker.DeclareAsync(channel, ct);
        // Bounded by what is there now: skipped messages stay unacked until the channel closes.
        var waiting = await channel.MessageCountAsync(broker.DeadQueue, ct);
        var replayed = 0;
        for (var seen = 0u; seen < waiting && await channel.BasicGetAsync(broker.DeadQueue, autoAck: false, ct) is { } got; seen++)
        {
            if (messageIds.Count > 0 && !messageIds.Contains(got.BasicProperties.MessageId ?? ""))
            {
                continue;
            }
            await channel.BasicPublishAsync("", broker.WorkQueue, mandatory: true,
                SmsBroker.Properties(got.BasicProperties.MessageId ?? "", got.BasicProperties.Type, 1), got.Body, ct);
            await channel.BasicAckAsync(got.DeliveryTag, multiple: false, ct);
            replayed++;
        }
        await channel.CloseAsync(ct);
        return replayed;
    }
}
