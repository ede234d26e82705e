using System.Buffers;
using System.Text.Json;
using Hl7.Fhir.Model;
using Hl7.Fhir.Serialization;
using Microsoft.Win32.SafeHandles;

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
}

/// <summary>
/// Writes one NDJSON file, lines newest first (by meta.lastUpdated): a resource serialized by Firely's serializer as one
/// minified line, or a line copied as it is from an earlier file (a resource that did not change since); copies of lines
/// that lie one after another in the earlier file go as one read and one write. Each call answers where its line lies in
/// the new file (<see cref="Line"/>), for the next publication to copy from.
/// </summary>
internal sealed class NdjsonWriter : IDisposable
{
    private const int CopyChunk = 1 << 20;

    private readonly FileStream _file;
    private readonly Utf8JsonWriter _json;
    private readonly BaseFhirJsonSerializer _serializer;
    private readonly List<(long, long)> _starts = [];
    private long _last = long.MaxValue;
    private SafeFileHandle? _source;
    private long _runStart;
    private long _runLength;
    private byte[]? _buffer;

    public NdjsonWriter(string path, BaseFhirJsonSerializer serializer)
    {
        _file = new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.Read, bufferSize: 1 << 16, useAsync: false);
        _json = new Utf8JsonWriter(_file, new JsonWriterOptions { SkipValidation = true });
        _serializer = serializer;
    }

    public string Path => _file.Name;

    /// <summary>Serializes the resource as the next line.</summary>
    public long Write(long updatedMs, Resource resource)
    {
        Flush();
        Starting(updatedMs);
        var at = _file.Position;
        _serializer.Serialize(resource, _json);
        _json.Flush();
        _json.Reset();
        _file.WriteByte((byte)'\n');
        return Line.Pack(at, (int)(_file.Position - at));
    }

    /// <summary>Copies a line of an earlier file (where <paramref name="line"/> says) as the next line.</summary>
    public long Copy(SafeFileHandle source, long line, long updatedMs)
    {
        Starting(updatedMs);
        var (offset, length) = (Line.Offset(line), Line.Length(line));
        if (!ReferenceEquals(source, _source) || offset != _runStart + _runLength)
        {
            Flush();
            _source = source;
            _runStart = offset;
        }
        var at = _file.Position + _runLength;
        _runLength += length;
        return Line.Pack(at, length);
    }

    public NdjsonFile Finish(string name, string type, string region)
    {
        Flush();
        _file.Flush();
        return new NdjsonFile(name, type, region, _file.Name, _file.Length, _starts);
    }

    public void Dispose()
    {
        _json.Dispose();
        _file.Dispose();
        if (_buffer is not null)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
        }
    }

    private void Starting(long updatedMs)
    {
        if (updatedMs > _last)
        {
            throw new InvalidOperationException("NDJSON resources must come newest first.");
        }
        if (updatedMs != _last)
        {
            _starts.Add((updatedMs, _file.Position + _runLength));
            _last = updatedMs;
        }
    }

    /// <summary>Writes the pending run of copied lines.</summary>
    private void Flush()
    {
        if (_runLength == 0)
        {
            return;
        }
        _buffer ??= ArrayPool<byte>.Shared.Rent(CopyChunk);
        for (long done = 0; done < _runLength;)
        {
            var want = (int)Math.Min(_buffer.Length, _runLength - done);
            var read = RandomAccess.Read(_source!, _buffer.AsSpan(0, want), _runStart + done);
            if (read <= 0)
            {
                throw new IOException("The earlier publication's file ended before the line to copy.");
            }
            _file.Write(_buffer, 0, read);
            done += read;
        }
        _runStart += _runLength;
        _runLength = 0;
    }
}
