using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Slots.MachineKeys;

namespace Slots.Hosting.Staff;

/// <summary>A key that matched: the name it is audited under, and its role.</summary>
public sealed record StaffKey(string Name, string Role);

/// <summary>
/// The machine keys both hosts accept in X-Api-Key (the API's staff endpoints, /metrics on either
/// host), checked in one place: the configured ones (Slots:Admin:Keys, for bootstrap and the local
/// scripts) and those admins made through the API (the machine_keys table). Every comparison is of
/// SHA-256 hashes in constant time. The working database keys are held in memory and reloaded at
/// most <see cref="AdminOptions.KeyRefresh"/> after the last load, so a key revoked on another
/// instance stops working within that bound; one revoked on this instance, and any key past its
/// expiry, stops at once.
/// </summary>
public sealed partial class StaffKeys(IOptionsMonitor<AdminOptions> options, IServiceProvider services, ILogger<StaffKeys> log)
{
    public const string Header = "X-Api-Key";

    private readonly SemaphoreSlim _reload = new(1, 1);
    private readonly TimeProvider _clock = services.GetService<TimeProvider>() ?? TimeProvider.System;
    private volatile Snapshot? _snapshot;

    /// <summary>The key's name and role, or null when <paramref name="presented"/> is no working key.</summary>
    public async ValueTask<StaffKey?> FindAsync(string? presented, CancellationToken ct)
    {
        if (string.IsNullOrEmpty(presented))
        {
            return null;
        }
        var hash = SHA256.HashData(Encoding.UTF8.GetBytes(presented));
        foreach (var (name, key) in options.CurrentValue.Keys)
        {
            if (key.HashBytes() is { } configured && CryptographicOperations.FixedTimeEquals(hash, configured))
            {
                return new StaffKey(name, key.Role);
            }
        }
        var now = _clock.GetUtcNow();
        foreach (var key in (await WorkingAsync(now, ct)).Keys)
        {
            if (CryptographicOperations.FixedTimeEquals(hash, key.HashBytes) && key.Key.WorksAt(now))
            {
                // The id tells two keys of one name apart in the audit trail.
                return new StaffKey($"{key.Key.Name} (key {key.Key.Id})", key.Key.Role);
            }
        }
        return null;
    }

    /// <summary>Drops the held keys: the next check reads the table (after a key was made or revoked here).</summary>
    public void Forget() => _snapshot = null;

    private async ValueTask<Snapshot> WorkingAsync(DateTimeOffset now, CancellationToken ct)
    {
        var refresh = options.CurrentValue.KeyRefresh;
        if (_snapshot is { } held && now - held.LoadedAt < refresh)
        {
            return held;
        }
        await _reload.WaitAsync(ct);
        try
        {
            if (_snapshot is { } fresh && _clock.GetUtcNow() - fresh.LoadedAt < refresh)
            {
                return fresh;
            }
            var loadedAt = _clock.GetUtcNow();
            Snapshot snapshot;
            if (services.GetService<IMachineKeyStore>() is not { } store)
            {
                snapshot = new Snapshot(loadedAt, []);
            }
            else
            {
                try
                {
                    var working = await store.WorkingAsync(loadedAt, ct);
                    snapshot = new Snapshot(loadedAt, [.. working.Select(k => (k, Convert.FromHexString(k.Hash)))]);
                }
                catch (Exception e) when (e is not OperationCanceledException)
                {
                    // Fail closed for database keys until the next try; the configured keys still work.
                    KeysUnreadable(log, e);
                    snapshot = new Snapshot(loadedAt, []);
                }
            }
            _snapshot = snapshot;
            return snapshot;
        }
        finally
        {
            _reload.Release();
        }
    }

    [LoggerMessage(EventId = 7001, Level = LogLevel.Warning, Message = "The machine keys could not be read; only configured keys work until the next try")]
    private static partial void KeysUnreadable(ILogger logger, Exception error);

    private sealed record Snapshot(DateTimeOffset LoadedAt, List<(MachineKey Key, byte[] HashBytes)> Keys);
}
