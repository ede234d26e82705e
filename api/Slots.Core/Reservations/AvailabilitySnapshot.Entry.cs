using System.Diagnostics;

namespace Slots.Reservations;

public sealed partial class AvailabilitySnapshot
{
    /// <summary>
    /// One place's hot days [from, to] of its hot window [from, hotTo]: the slots in (day, time) order and their free
    /// seats, which own answers change in place; the last day its readers reached, and when it was last read.
    /// </summary>
    private sealed class Entry(DateOnly from, DateOnly hotTo, DateOnly to, SlotAvailability[] slots, long loadedAt, long readAt = Entry.NeverRead)
    {
        /// <summary><see cref="ReadAt"/> of an entry no one has read yet (held for a fresh instance).</summary>
        public const long NeverRead = long.MinValue;

        private readonly int[] _free = Array.ConvertAll(slots, s => s.Free);
        private long _version;
        private int _reach = from.DayNumber;
        private long _loadedAt = loadedAt;
        private long _readAt = readAt;

        /// <summary>Counts the changes of a free count (a change to the same value is none).</summary>
        public long Version => Interlocked.Read(ref _version);

        public DateOnly From => from;
        public long LoadedAt => Interlocked.Read(ref _loadedAt);

        /// <summary>
        /// A load of the same days that read the same slots (times, lengths, capacities) takes their free counts in place,
        /// a change of count counted as any other, and starts the entry's age and reach again; false (nothing changed) when
        /// the days or the slots differ, and the load makes an entry of its own.
        /// </summary>
        public bool Refresh(DateOnly hotFrom, DateOnly windowTo, DateOnly last, IReadOnlyList<SlotAvailability> read, long startedAt)
        {
            if (from != hotFrom || hotTo != windowTo || to != last || read.Count != slots.Length)
            {
                return false;
            }
            for (var i = 0; i < slots.Length; i++)
            {
                if (read[i] with { Free = 0 } != slots[i] with { Free = 0 })
                {
                    return false;
                }
            }
            for (var i = 0; i < slots.Length; i++)
            {
                if (Interlocked.Exchange(ref _free[i], read[i].Free) != read[i].Free)
                {
                    Interlocked.Increment(ref _version);
                }
            }
            Volatile.Write(ref _reach, from.DayNumber);
            Interlocked.Exchange(ref _loadedAt, startedAt);
            return true;
        }

        /// <summary>When the entry was last read (a timestamp), or <see cref="NeverRead"/>; kept across its loads.</summary>
        public long ReadAt => Interlocked.Read(ref _readAt);

        public void Read(long at) => Interlocked.Exchange(ref _readAt, at);

        /// <summary>The last day read from the entry since it was loaded.</summary>
        public DateOnly Reach => DateOnly.FromDayNumber(Volatile.Read(ref _reach));

        /// <summary>Whether it holds the days from the hot window's first up to <paramref name="last"/>, of that window.</summary>
        public bool Holds(DateOnly hotFrom, DateOnly windowTo, DateOnly last) => from == hotFrom && hotTo == windowTo && last <= to;

        public void Reached(DateOnly last)
        {
            var seen = Volatile.Read(ref _reach);
            while (seen < last.DayNumber)
            {
                var was = Interlocked.CompareExchange(ref _reach, last.DayNumber, seen);
                if (was == seen)
                {
                    return;
                }
                seen = was;
            }
        }

        /// <summary>
        /// The slots of the days [first, last] with their free seats now, in an array of exactly their count: a stampede reads
        /// hundreds of weeks a second, and a list grown slot by slot was a fifth of the instance's allocations.
        /// </summary>
        public SlotAvailability[] Slice(DateOnly first, DateOnly last)
        {
            var start = IndexOf(first, 0);
            var slice = new SlotAvailability[Math.Max(0, IndexOf(last.AddDays(1), 0) - start)];
            for (var k = 0; k < slice.Length; k++)
            {
                slice[k] = slots[start + k] with { Free = Volatile.Read(ref _free[start + k]) };
            }
            return slice;
        }

        public void Change(SlotKey slot, Func<int, int> free)
        {
            // Several services of the place may start at the same minute: the slot is among them.
            var i = IndexOf(slot.Day, slot.StartMinute);
            while (i < slots.Length && slots[i].Slot != slot && slots[i].Slot.Day == slot.Day && slots[i].Slot.StartMinute == slot.StartMinute)
            {
                i++;
            }
            if (i < slots.Length && slots[i].Slot == slot)
            {
                int seen, next;
                do
                {
                    seen = Volatile.Read(ref _free[i]);
                    next = free(seen);
                }
                while (Interlocked.CompareExchange(ref _free[i], next, seen) != seen);
                if (next != seen)
                {
                    Interlocked.Increment(ref _version);
                }
            }
        }

        /// <summary>The first slot at or after (day, minute).</summary>
        private int IndexOf(DateOnly day, int minute)
        {
            int lo = 0, hi = slots.Length;
            while (lo < hi)
            {
                var mid = (lo + hi) >>> 1;
                var s = slots[mid].Slot;
                if (s.Day < day || (s.Day == day && s.StartMinute < minute))
                {
                    lo = mid + 1;
                }
                else
                {
                    hi = mid;
                }
            }
            Debug.Assert(lo <= slots.Length);
            return lo;
        }
    }
}
