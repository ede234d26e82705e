using Hl7.Fhir.Model;
using Hl7.Fhir.Serialization;

namespace Slots.Api.Finders;

/// <summary>How a publication writes a region's files, each made from the one before (see <see cref="Publisher"/>).</summary>
internal sealed partial class Publisher
{
    /// <summary>
    /// Where a region's Slot lines lie: a base file, written whole now and then, and the latest publication's own file with
    /// the lines that changed since the base (null: none). A publication writes only the second again; the base's lines that
    /// still hold are named where they lie.
    /// </summary>
    private sealed record SlotFiles(string Base, long BaseLength, string? Changes, long ChangesLength)
    {
        public IEnumerable<string> Paths => Changes is null ? [Base] : [Base, Changes];
    }

    /// <summary>A region's three files as a publication gave them, its places, how many Slot lines it serialized, and where they lie.</summary>
    private sealed record Written(NdjsonFile[] Files, PublishedPlace[] Places, int Serialized, SlotFiles Slots);

    /// <summary>
    /// A region's three files. Locations and Schedules (one per place and service) are written whole. The Slot file is
    /// newest first: the slots without a line (new, changed, or of a place read afresh) serialized, then the lines that
    /// changed since the base copied from the last publication's own file, then the base's lines that still hold, named
    /// where they lie. When those copied lines outgrow <paramref name="compactShare"/> of the base (or there is no base),
    /// the base's lines are copied too and the file becomes the region's new base.
    /// </summary>
    private Written WriteRegion(string folder, long number, string region,
        string slug, PublishedPlace[] group, SlotFiles? before, double compactShare, CancellationToken ct)
    {
        var serializer = new BaseFhirJsonSerializer(ModelInfo.ModelInspector);
        var files = new NdjsonFile[3];
        string Own(string type) => Path.Combine(folder, $"{number}-{type}-{slug}.ndjson");
        using (var file = new NdjsonWriter(Own("Location"), serializer))
        {
            foreach (var p in group.OrderByDescending(p => p.LocationUpdatedMs))
            {
                file.Write(p.LocationUpdatedMs, _resources.Location(p));
            }
            files[0] = file.Finish($"Location-{slug}.ndjson", "Location", region);
        }
        using (var file = new NdjsonWriter(Own("Schedule"), serializer))
        {
            foreach (var (p, schedule) in group.SelectMany(p => p.Schedules.Select(s => (p, s))).OrderByDescending(x => x.s.UpdatedMs))
            {
                file.Write(schedule.UpdatedMs, _resources.Schedule(p, schedule));
            }
            files[1] = file.Finish($"Schedule-{slug}.ndjson", "Schedule", region);
        }
        // 16 bytes a slot while the file is written: where its line lay, and which place and slot it is; sorted as
        // primitives (the base's million lines by where they lie), not through a comparison delegate.
        var fresh = new List<(int Place, int Slot)>();
        var changed = new Lines();
        var based = new Lines();
        for (var p = 0; p < group.Length; p++)
        {
            var lines = group[p].Lines;
            for (var i = 0; i < lines.Length; i++)
            {
                var line = lines[i];
                if (before is null || line == 0 || (!Line.InBase(line) && before.Changes is null))
                {
                    fresh.Add((p, i));
                }
                else
                {
                    (Line.InBase(line) ? based : changed).Add(line, p, i);
                }
            }
        }
        fresh.Sort((a, b) => group[b.Place].Slots[b.Slot].UpdatedMs.CompareTo(group[a.Place].Slots[a.Slot].UpdatedMs));
        changed.Sort();
        based.Sort();
        var compact = before is null || before.ChangesLength > before.BaseLength * compactShare;
        var now = Array.ConvertAll(group, p => (long[])p.Lines.Clone());
        SlotFiles after;
        using (var fromChanges = changed.Count > 0 ? File.OpenHandle(before!.Changes!, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete) : null)
        using (var fromBase = compact && based.Count > 0 ? File.OpenHandle(before!.Base, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete) : null)
        using (var file = new NdjsonWriter(Own("Slot"), serializer, asBase: compact))
        {
            var count = 0;
            foreach (var (p, i) in fresh)
            {
                var place = group[p];
                now[p][i] = file.Write(place.Slots[i].UpdatedMs, (_resources, place, i),
                    static (json, s) => s._resources.WriteSlot(json, s.place, s.place.ScheduleOf(s.i), s.place.Slots[s.i]));
                if (++count % 4096 == 0)
                {
                    ct.ThrowIfCancellationRequested();
                }
            }
            foreach (var (line, p, i) in changed.InOrder())
            {
                now[p][i] = file.Copy(fromChanges!, line, group[p].Slots[i].UpdatedMs);
            }
            var own = file.OwnLength;
            foreach (var (line, p, i) in based.InOrder())
            {
                if (compact)
                {
                    now[p][i] = file.Copy(fromBase!, line, group[p].Slots[i].UpdatedMs);
                }
                else
                {
                    file.Reference(before!.Base, line, group[p].Slots[i].UpdatedMs);
                }
            }
            files[2] = file.Finish($"Slot-{slug}.ndjson", "Slot", region);
            after = compact
                ? new SlotFiles(Own("Slot"), files[2].Length, null, 0)
                : new SlotFiles(before!.Base, before.BaseLength, Own("Slot"), own);
        }
        return new Written(files, [.. group.Select((p, k) => p with { Lines = now[k] })], fresh.Count, after);
    }

    /// <summary>Lines to copy or name, with their place and slot, sorted by where they lie.</summary>
    private sealed class Lines
    {
        private long[] _lines = new long[1024];
        private long[] _slots = new long[1024];

        public int Count { get; private set; }

        public void Add(long line, int place, int slot)
        {
            if (Count == _lines.Length)
            {
                Array.Resize(ref _lines, Count * 2);
                Array.Resize(ref _slots, Count * 2);
            }
            _lines[Count] = line;
            _slots[Count++] = ((long)place << 32) | (uint)slot;
        }

        public void Sort() => Array.Sort(_lines, _slots, 0, Count);

        public IEnumerable<(long Line, int Place, int Slot)> InOrder()
        {
            for (var k = 0; k < Count; k++)
            {
                yield return (_lines[k], (int)(_slots[k] >> 32), (int)_slots[k]);
            }
        }
    }
}
