using Microsoft.Extensions.DependencyInjection;

namespace Slots.Sms.RabbitMq;

/// <summary>
/// The operator's commands, run by the scheduler host instead of starting it:
/// <c>sms dead-letters list [max]</c> and <c>sms dead-letters replay [message-id …]</c>.
/// </summary>
public static class SmsCommands
{
    public static bool IsSmsCommand(string[] args) => args is ["sms", ..];

    /// <summary>Runs the command; returns the process exit code.</summary>
    public static async Task<int> RunAsync(string[] args, IServiceProvider services, TextWriter output, CancellationToken ct)
    {
        var deadLetters = services.GetService<SmsDeadLetters>();
        if (deadLetters is null)
        {
            await output.WriteLineAsync("SMS go through RabbitMQ only when ConnectionStrings:RabbitMq is set; there is no dead-letter queue without it.");
            return 2;
        }
        switch (args)
        {
            case ["sms", "dead-letters", "list", .. var rest]:
                var max = rest is [var text] && int.TryParse(text, out var n) && n > 0 ? n : 100;
                var letters = await deadLetters.ListAsync(max, ct);
                await output.WriteLineAsync($"{letters.Count} dead letter(s){(letters.Count == max ? $" (first {max})" : "")}");
                foreach (var letter in letters)
                {
                    await output.WriteLineAsync($"{letter.MessageId}\t{letter.Kind}\t{letter.Code}\ttries={letter.Tries}\t{letter.Error}");
                }
                return 0;
            case ["sms", "dead-letters", "replay", .. var ids]:
                var replayed = await deadLetters.ReplayAsync(ids, ct);
                await output.WriteLineAsync($"{replayed} message(s) moved back to the work queue");
                return 0;
            default:
                await output.WriteLineAsync("usage: sms dead-letters list [max]\n       sms dead-letters replay [message-id ...]");
                return 2;
        }
    }
}
