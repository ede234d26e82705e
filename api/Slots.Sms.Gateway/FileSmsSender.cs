using System.Text.Json;
using Microsoft.Extensions.Options;

namespace Slots.Sms.Gateway;

/// <summary>
/// The development sink: every SMS becomes one JSON line in a file, so a developer can see what a
/// person would get. The file holds phone numbers (it is the "phone"); logs never do.
/// </summary>
public sealed class FileSmsSender : SmsSender, IDisposable
{
    private readonly SemaphoreSlim _gate = new(1, 1);
    private readonly string _path;
    private readonly TimeProvider _clock;

    public FileSmsSender(IOptions<SmsOptions> options, TimeProvider clock, Microsoft.Extensions.Hosting.IHostEnvironment environment)
    {
        _clock = clock;
        _path = Path.IsPathRooted(options.Value.File.Path)
            ? options.Value.File.Path
            : Path.Combine(environment.ContentRootPath, options.Value.File.Path);
        Directory.CreateDirectory(Path.GetDirectoryName(_path)!);
    }

    public string FilePath => _path;

    public override async Task SendAsync(OutgoingSms sms, CancellationToken ct)
    {
        var line = JsonSerializer.Serialize(new FileSinkLine(sms.MessageId, sms.Phone, sms.Text, _clock.GetUtcNow()), GatewayJsonContext.Default.FileSinkLine);
        await _gate.WaitAsync(ct);
        try
        {
            await File.AppendAllTextAsync(_path, line + "\n", ct);
        }
        finally
        {
            _gate.Release();
        }
    }

    public void Dispose() => _gate.Dispose();
}

/// <summary>One line of the development sink.</summary>
internal sealed record FileSinkLine(long Id, string To, string Text, DateTimeOffset At);
