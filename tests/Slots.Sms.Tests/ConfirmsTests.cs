using Slots.Sms.RabbitMq;

namespace Slots.Sms.Tests;

/// <summary>
/// The consumer's moves (to a delay queue, to the dead letters) wait for the broker's confirm within
/// Slots:Sms:ConfirmTimeout; a node that froze with the socket up never sends one, and the client would
/// wait without end with the message unacked (issue #40). No broker needed: the publish is a stand-in.
/// </summary>
public sealed class ConfirmsTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task A_confirm_that_never_comes_ends_in_a_timeout_naming_the_setting()
    {
        var error = await Assert.ThrowsAsync<TimeoutException>(() =>
            Confirms.WithinAsync(ct => new ValueTask(Task.Delay(Timeout.Infinite, ct)), TimeSpan.FromMilliseconds(50), TimeProvider.System,
                "the broker did not confirm a move to slots.sms.dead").WaitAsync(Bound, TestContext.Current.CancellationToken));

        Assert.Contains("within 0.05 s (Slots:Sms:ConfirmTimeout)", error.Message);
    }

    [Fact]
    public async Task A_confirmed_publish_passes_with_a_live_token()
    {
        var calls = 0;
        await Confirms.WithinAsync(ct =>
        {
            calls++;
            Assert.False(ct.IsCancellationRequested);
            return ValueTask.CompletedTask;
        }, TimeSpan.FromSeconds(15), TimeProvider.System, "unused");

        Assert.Equal(1, calls);
    }

    [Fact]
    public async Task A_refusal_of_the_broker_is_not_mistaken_for_a_timeout()
    {
        await Assert.ThrowsAsync<IOException>(() =>
            Confirms.WithinAsync(_ => ValueTask.FromException(new IOException("channel closed")), TimeSpan.FromSeconds(15), TimeProvider.System, "unused"));
    }
}
