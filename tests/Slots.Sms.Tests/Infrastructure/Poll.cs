namespace Slots.Sms.Tests.Infrastructure;

/// <summary>Waits for what the system under test makes true in its own time (a consumer, a broker, a relay).</summary>
public static class Poll
{
    /// <summary>Asks <paramref name="condition"/> every <paramref name="every"/> (200 ms unless given) until it holds; fails with <paramref name="failure"/> after <paramref name="patience"/>.</summary>
    public static async Task UntilAsync(Func<Task<bool>> condition, TimeSpan patience, string failure = "the condition did not come true in time", TimeSpan? every = null) =>
        Assert.True(await TryUntilAsync(condition, patience, every), failure);

    /// <summary>Like <see cref="UntilAsync"/>, but answers whether the condition came true, so the caller can say why it did not.</summary>
    public static async Task<bool> TryUntilAsync(Func<Task<bool>> condition, TimeSpan patience, TimeSpan? every = null)
    {
        var limit = DateTime.UtcNow + patience;
        while (!await condition())
        {
            if (DateTime.UtcNow >= limit)
            {
                return false;
            }
            await Task.Delay(every ?? TimeSpan.FromMilliseconds(200));
        }
        return true;
    }
}
