using System.Collections.Concurrent;

namespace Slots.Sms.Tests.Infrastructure;

/// <summary>
/// A test double of the gateway port: records every SMS that got through (completed sends) and
/// every call (started sends), and can be told how to behave per call.
/// </summary>
public sealed class RecordingSender : SmsSender
{
    private readonly ConcurrentDictionary<long, int> _calls = new();
    private readonly ConcurrentDictionary<long, int> _sent = new();
    private readonly ConcurrentQueue<OutgoingSms> _messages = new();

    /// <summary>Called before a send completes with the SMS and the call number for its id (1 = first); throw to fail it.</summary>
    public Func<OutgoingSms, int, CancellationToken, Task>? Behaviour { get; set; }

    public IReadOnlyDictionary<long, int> Sent => _sent;
    public IReadOnlyDictionary<long, int> Calls => _calls;
    public IEnumerable<OutgoingSms> Messages => _messages;

    public override async Task SendAsync(OutgoingSms sms, CancellationToken ct)
    {
        var call = _calls.AddOrUpdate(sms.MessageId, 1, (_, n) => n + 1);
        if (Behaviour is { } behaviour)
        {
            await behaviour(sms, call, ct);
        }
        _sent.AddOrUpdate(sms.MessageId, 1, (_, n) => n + 1);
        _messages.Enqueue(sms);
    }

    /// <summary>Waits until <paramref name="count"/> distinct messages went out (bounded).</summary>
    public async Task WaitForAsync(int count, TimeSpan timeout)
    {
        var limit = DateTime.UtcNow + timeout;
        while (_sent.Count < count)
        {
            Assert.True(DateTime.UtcNow < limit, $"only {_sent.Count} of {count} SMS went out in {timeout.TotalSeconds} s");
            await Task.Delay(50);
        }
    }
}
