namespace Slots.Api.Finders;

/// <summary>One generation of the published files: what <c>$bulk-publish</c> lists until the next one replaces it.</summary>
/// <param name="TransactionTime">
/// At or after every resource's lastUpdated in it, and before any a later publication gives: passed back as _since, it asks
/// for exactly what changed after this publication. Never before its reads began, less the snapshot's age.
/// </param>
internal sealed record Publication(long Number, DateTimeOffset TransactionTime, IReadOnlyList<NdjsonFile> Files)
{
    private readonly Dictionary<string, NdjsonFile> _byName = Files.ToDictionary(f => f.Name, StringComparer.Ordinal);

    public NdjsonFile? Find(string name) => _byName.GetValueOrDefault(name);
}
