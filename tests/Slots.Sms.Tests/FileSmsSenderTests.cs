using Microsoft.Extensions.FileProviders;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Slots.Sms.Gateway;

namespace Slots.Sms.Tests;

/// <summary>The development sink stands in for the gateway, so it takes each message id once, as a gateway honouring Idempotency-Key does.</summary>
public sealed class FileSmsSenderTests
{
    [Fact]
    public async Task A_message_id_sent_before_a_restart_is_not_written_again()
    {
        var ct = TestContext.Current.CancellationToken;
        var folder = Directory.CreateTempSubdirectory("slots-sms-sink-");
        try
        {
            var path = Path.Combine(folder.FullName, "sms.jsonl");
            using (var first = Sink(path))
            {
                await first.SendAsync(new OutgoingSms(7, "+421900000007", "Kod: AAA"), ct);
                await first.SendAsync(new OutgoingSms(7, "+421900000007", "Kod: AAA"), ct);
            }
            // A new process (the scheduler restarted after a restore) meets message 7 again, relayed a second time.
            using (var second = Sink(path))
            {
                await second.SendAsync(new OutgoingSms(7, "+421900000007", "Kod: AAA"), ct);
                await second.SendAsync(new OutgoingSms(8, "+421900000008", "Kod: BBB"), ct);
            }

            var lines = await File.ReadAllLinesAsync(path, ct);
            Assert.Equal(2, lines.Length);
            Assert.Contains("Kod: AAA", lines[0], StringComparison.Ordinal);
            Assert.Contains("Kod: BBB", lines[1], StringComparison.Ordinal);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    private static FileSmsSender Sink(string path) =>
        new(Options.Create(new SmsOptions { File = new FileSenderOptions { Path = path } }), TimeProvider.System, new Host());

    private sealed class Host : IHostEnvironment
    {
        public string EnvironmentName { get; set; } = "Development";

        public string ApplicationName { get; set; } = "Slots.Sms.Tests";

        public string ContentRootPath { get; set; } = Path.GetTempPath();

        public IFileProvider ContentRootFileProvider { get; set; } = new NullFileProvider();
    }
}
