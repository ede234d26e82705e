namespace Slots.Reservations;

/// <summary>
/// Who may see or change a reservation: the phone that made it or the person's national id (its
/// hash under the current key; during a key rotation also under the previous one, tried after a miss).
/// </summary>
public readonly record struct ContactProof(string? Phone, string? PersonHash, string? PreviousPersonHash = null)
{
    /// <summary>The same national id under the previous key, for a second try after a miss; null outside a rotation.</summary>
    public ContactProof? UnderPreviousKey => PreviousPersonHash is null ? null : new ContactProof(null, PreviousPersonHash);
}
