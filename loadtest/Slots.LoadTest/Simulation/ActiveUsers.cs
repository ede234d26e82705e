namespace Slots.LoadTest.Simulation;

/// <summary>
/// The users of an open run who are sending or reading right now: the bound on starting new
/// arrivals. A user asleep in Retry-After (or a back-off) is not counted while it sleeps, so a
/// crowd told to wait does not stop the generator from starting the people still arriving; it
/// counts again once it wakes, even when that takes the count past the bound for a moment.
/// </summary>
public sealed class ActiveUsers(int max)
{
    private int _active;

    public int Count => Volatile.Read(ref _active);

    /// <summary>Counts a new user when fewer than the bound are active; false when the generator is full.</summary>
    public bool TryStart()
    {
        while (true)
        {
            var seen = Volatile.Read(ref _active);
            if (seen >= max)
            {
                return false;
            }
            if (Interlocked.CompareExchange(ref _active, seen + 1, seen) == seen)
            {
                return true;
            }
        }
    }

    public void Sleeping() => Interlocked.Decrement(ref _active);

    public void Woke() => Interlocked.Increment(ref _active);

    public void Left() => Interlocked.Decrement(ref _active);
}
