namespace Slots.MachineKeys;

/// <summary>The machine keys table (machine_keys), on every backend.</summary>
public interface IMachineKeyStore
{
    /// <summary>Stores the key and answers it with its id.</summary>
    Task<MachineKey> AddAsync(NewMachineKey key, CancellationToken ct);

    /// <summary>Every key, revoked and expired ones too, newest first.</summary>
    Task<IReadOnlyList<MachineKey>> ListAsync(CancellationToken ct);

    /// <summary>The keys neither revoked nor expired at <paramref name="now"/>: what the key check holds in memory.</summary>
    Task<IReadOnlyList<MachineKey>> WorkingAsync(DateTimeOffset now, CancellationToken ct);

    /// <summary>Marks the key revoked at <paramref name="at"/> by <paramref name="by"/>, once: a second revoke keeps the first.</summary>
    Task<RevokeOutcome> RevokeAsync(long id, DateTimeOffset at, string by, CancellationToken ct);
}
