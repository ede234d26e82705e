using System.Text.Json;
using Hl7.Fhir.Model;
using Hl7.Fhir.Serialization;

namespace Slots.Api.Finders;

/// <summary>
/// One published NDJSON file, its resources written newest first (by meta.lastUpdated), so that the resources changed
/// since any moment are a prefix of the file: <c>_since</c> is answered by sending the file's first bytes, with no
/// second copy and no parsing.
/// </summary>
/// <param name="Name">The file's name in its URL, e.g. Slot-bratislavsky-kraj.ndjson.</param>
/// <param name="Type">Location, Schedule or Slot.</param>
/// <param name="Region">The places' region, the manifest's extension.state.</param>
/// <param name="Starts">For each lastUpdated in the file, newest first, the byte offset where its lines begin.</param>
internal sealed record NdjsonFile(string Name, string Type, string Region, string Path, long Length, IReadOnlyList<(long UpdatedMs, long Offset)> Starts)
{
    /// <summary>How many bytes from the start hold every resource updated after <paramref name="sinceMs"/>.</summary>
    public long PrefixSince(long? sinceMs)
    {
        if (sinceMs is not { } since)
        {
            return Length;
        }
        // Starts is in descending lastUpdated: find the first group not newer than since.
        int lo = 0, hi = Starts.Count;
        while (lo < hi)
        {
            var mid = (lo + hi) >>> 1;
            if (Starts[mid].UpdatedMs > since)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }
        return lo < Starts.Count ? Starts[lo].Offset : Length;
    }

    /// <summary>Writes resources, given newest first, one minified line each, serialized by Firely's serializer.</summary>
    public static async Task<NdjsonFile> WriteAsync(string name, string type, string region, string path,
        IEnumerable<(long UpdatedMs, Resource Resource)> resources, BaseFhirJsonSerializer serializer, CancellationToken ct)
    {
        var starts = new List<(long, long)>();
        await using var file = new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.Read, bufferSize: 1 << 16, useAsync: false);
        await using var json = new Utf8JsonWriter(file, new JsonWriterOptions { SkipValidation = true });
        var last = long.MaxValue;
        var count = 0;
        foreach (var (updated, resource) in resources)
        {
            if (updated > last)
            {
                throw new InvalidOperationException("NDJSON resources must come newest first.");
            }
            if (updated != last)
            {
                starts.Add((updated, file.Position));
                last = updated;
            }
            serializer.Serialize(resource, json);
            json.Flush();
            json.Reset();
            file.WriteByte((byte)'\n');
            if (++count % 4096 == 0)
            {
                ct.ThrowIfCancellationRequested();
            }
        }
        await file.FlushAsync(ct);
        return new NdjsonFile(name, type, region, path, file.Length, starts);
    }
}
