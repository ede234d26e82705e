using System.Text.Json;
using Microsoft.Extensions.Options;

namespace Slots.Sms.Gateway;

/// <summary>
/// The development sink: every SMS becomes one JSON line in a file, so a developer can see what a
/// person would get. The file holds phone numbers (it is the "phone"); logs never do.
/// Like a gateway that honours the Idempotency-Key, it takes each message id once, also across
/// restarts (the ids already in the file are read at the first send): a database restored to a
/// moment before some messages were sent relays them again, and the person still gets one SMS.
/// </summary>
public sealed class FileSmsSender : SmsSender, IDisposable
{
    private readonly SemaphoreSlim _gate = new(1, 1);
    private readonly string _path;
    private readonly TimeProvider _clock;
    private HashSet<long>? _taken;

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
            _taken ??= await ReadIdsAsync(_path, ct);
            if (!_taken.Add(sms.MessageId))
            {
                return;
            }
            await File.AppendAllTextAsync(_path, line + "\n", ct);
        }
        finally
        {
            _gate.Release();
        }
    }

    private static async Task<HashSet<long>> ReadIdsAsync(string path, CancellationToken ct)
    {
        var ids = new HashSet<long>();
        if (!File.Exists(path))
        {
            return ids;
        }
        foreach (var line in await File.ReadAllLinesAsync(path, ct))
        {
            if (line.Length > 0 && JsonSerializer.Deserialize(line, GatewayJsonContext.Default.FileSinkLine) is { } sent)
            {
                ids.Add(sent.Id);
            }
        }
        return ids;
    }

    public void Dispose() => _gate.Dispose();
}

/// <summary>One line of the development sink.</summary>
internal sealed record FileSinkLine(long Id, string To, string Text, DateTimeOffset At);
