namespace Slots.Sms.RabbitMq;

/// <summary>A broker's confirm, waited for within a bound (Slots:Sms:ConfirmTimeout).</summary>
internal static class Confirms
{
    /// <summary>
    /// Runs <paramref name="publish"/> with a token that is cancelled after <paramref name="timeout"/>;
    /// a publish still waiting for its confirm then ends in a <see cref="TimeoutException"/> naming the key.
    /// </summary>
    public static async Task WithinAsync(Func<CancellationToken, ValueTask> publish, TimeSpan timeout, TimeProvider clock, string what)
    {
        using var deadline = new CancellationTokenSource(timeout, clock);
        try
        {
            await publish(deadline.Token);
        }
        catch (OperationCanceledException) when (deadline.IsCancellationRequested)
        {
            throw new TimeoutException($"{what} within {timeout.TotalSeconds:0.###} s (Slots:Sms:ConfirmTimeout)");
        }
    }
}
