namespace Slots.Api.Finders;

/// <summary>One generation of the published files: what <c>$bulk-publish</c> lists until the next one replaces it.</summary>
/// <param name="TransactionTime">When its data started to be read: every resource in it reflects the database at or after this.</param>
internal sealed record Publication(long Number, DateTimeOffset TransactionTime, IReadOnlyList<NdjsonFile> Files)
{
    private readonly Dictionary<string, NdjsonFile> _byName = Files.ToDictionary(f => f.Name, StringComparer.Ordinal);

    public NdjsonFile? Find(string name) => _byName.GetValueOrDefault(name);
}
