namespace Slots.Reservations;

/// <summary>
/// The second appointment of a two-dose booking as its store seated it: its own code (the row's key;
/// the person manages the pair by the first code), the day, the start and the slot's length (0 when
/// the store's answer did not carry it).
/// </summary>
public sealed record SecondDose(string Code, DateOnly Day, int StartMinute, int Minutes);

/// <summary>
/// The link between a pair's two reservations (table dose_pairs: the first code, the second code),
/// written in the booking's transaction by the store that seated both. Read by the use case to find,
/// cancel and move the second through the first. One implementation on the shared EF model serves
/// every backend.
/// </summary>
public interface IDosePairStore
{
    /// <summary>The second code of the pair whose first code this is; null when it is a single booking.</summary>
    Task<string?> SecondOfAsync(string firstCode, CancellationToken ct);

    /// <summary>The first code of the pair whose second code this is; null when it is not a second dose.</summary>
    Task<string?> FirstOfAsync(string secondCode, CancellationToken ct);

    /// <summary>The first codes of those of <paramref name="codes"/> that are second doses, by second code.</summary>
    Task<IReadOnlyDictionary<string, string>> FirstsAsync(IReadOnlyCollection<string> codes, CancellationToken ct);

    /// <summary>The other half of each of <paramref name="codes"/> that belongs to a pair (a first's second, a second's first), by code.</summary>
    Task<IReadOnlyDictionary<string, string>> OtherHalvesAsync(IReadOnlyCollection<string> codes, CancellationToken ct);

    /// <summary>The second doses (day and start) of those of <paramref name="firstCodes"/> that are pairs with an active second, by first code.</summary>
    Task<IReadOnlyDictionary<string, (DateOnly Day, int StartMinute)>> SecondsAsync(IReadOnlyCollection<string> firstCodes, CancellationToken ct);
}
