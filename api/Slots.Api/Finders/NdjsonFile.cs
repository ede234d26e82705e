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
/// <param name="Parts">Where its bytes lie, in order: ranges of files on disk (a Slot file's unchanged lines stay where an
/// earlier publication wrote them).</param>
/// <param name="Starts">For each lastUpdated in the file, newest first, the byte offset where its lines begin.</param>
internal sealed record NdjsonFile(string Name, string Type, string Region, IReadOnlyList<FilePart> Parts, long Length,
    IReadOnlyList<(long UpdatedMs, long Offset)> Starts)
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

/// <summary>A range of bytes of a file on disk: part of a published NDJSON file.</summary>
internal sealed record FilePart(string Path, long Offset, long Length);

/// <summary>
/// Writes one NDJSON file, lines newest first (by meta.lastUpdated): a resource serialized by Firely's serializer, or one
/// its caller writes to the same JSON writer (a Slot), as one minified line, or a line copied as it is from an earlier file
/// (a resource that did not change since), into a file of its own; after those, lines of an older file may be named
/// where they lie, not copied (<see cref="Reference"/>). Copies of lines that lie one after another go as one read and
/// one write. Each call answers where its line lies
/// (<see cref="Line"/>), for the next publication to copy or name.
/// </summary>
internal sealed class NdjsonWriter : IDisposable
{
    private const int CopyChunk = 1 << 20;

    private readonly FileStream _file;
    // A line is serialized here and then written to the file's buffer: Utf8JsonWriter.Flush on a FileStream would
    // flush the stream too, one write call to the kernel per line.
    private readonly ArrayBufferWriter<byte> _line = new(4096);
    private readonly Utf8JsonWriter _json;
    private readonly BaseFhirJsonSerializer _serializer;
    private readonly List<(long, long)> _starts = [];
    private long _last = long.MaxValue;
    private SafeFileHandle? _source;
    private long _runStart;
    private long _runLength;
    private byte[]? _buffer;

    private readonly bool _asBase;
    private readonly List<FilePart> _named = [];
    private long _namedLength;

    /// <param name="asBase">Whether the lines written here are to be named as a region's base (<see cref="Line"/>).</param>
    public NdjsonWriter(string path, BaseFhirJsonSerializer serializer, bool asBase = true)
    {
        _asBase = asBase;
        _file = new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.Read, bufferSize: 1 << 16, useAsync: false);
        _json = new Utf8JsonWriter(_line, new JsonWriterOptions { SkipValidation = true });
        _serializer = serializer;
    }

    public string Path => _file.Name;

    /// <summary>Serializes the resource as the next line.</summary>
    public long Write(long updatedMs, Resource resource) =>
        Write(updatedMs, (_serializer, resource), static (json, state) => state._serializer.Serialize(state.resource, json));

    /// <summary>The next line, as <paramref name="write"/> writes it with <paramref name="state"/>.</summary>
    public long Write<TState>(long updatedMs, TState state, Action<Utf8JsonWriter, TState> write)
    {
        Own();
        Flush();
        Starting(updatedMs);
        var at = _file.Position;
        write(_json, state);
        _json.Flush();
        _file.Write(_line.WrittenSpan);
        _file.WriteByte((byte)'\n');
        _json.Reset();
        _line.ResetWrittenCount();
        return Line.Pack(at, (int)(_file.Position - at), _asBase);
    }

    /// <summary>Copies a line of an earlier file (where <paramref name="line"/> says) as the next line.</summary>
    public long Copy(SafeFileHandle source, long line, long updatedMs)
    {
        Own();
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
        return Line.Pack(at, length, _asBase);
    }

    /// <summary>Names a line of an older file where it lies, as the next line; no line of this writer's own may follow.</summary>
    public void Reference(string path, long line, long updatedMs)
    {
        Flush();
        Starting(updatedMs);
        var (offset, length) = (Line.Offset(line), Line.Length(line));
        if (_named.Count > 0 && _named[^1] is var last && last.Path == path && last.Offset + last.Length == offset)
        {
            _named[^1] = last with { Length = last.Length + length };
        }
        else
        {
            _named.Add(new FilePart(path, offset, length));
        }
        _namedLength += length;
    }

    public NdjsonFile Finish(string name, string type, string region)
    {
        Flush();
        _file.Flush();
        List<FilePart> parts = _file.Length > 0 ? [new FilePart(_file.Name, 0, _file.Length), .. _named] : [.. _named];
        return new NdjsonFile(name, type, region, parts, _file.Length + _namedLength, _starts);
    }

    /// <summary>How many bytes this writer's own file holds so far.</summary>
    public long OwnLength => _file.Position + _runLength;

    private void Own()
    {
        if (_named.Count > 0)
        {
            throw new InvalidOperationException("Lines named in older files come after every line of the file's own.");
        }
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
            _starts.Add((updatedMs, _file.Position + _runLength + _namedLength));
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
