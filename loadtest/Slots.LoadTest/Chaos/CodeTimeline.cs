namespace Slots.LoadTest.Chaos;

/// <summary>
/// What one reservation code may look like, walked through the operations on it in invoke order.
/// A definite answer sets the state; an operation with an unknown outcome may take effect at any
/// moment after it was sent, so its effect is kept as a possibility to the end (a sound
/// over-approximation: it never blames a correct system, and a lost 201 has no such excuse).
/// A null slot stands for "gone" (cancelled or never there).
/// </summary>
public sealed class CodeTimeline
{
    private readonly HashSet<SlotRef?> _maybe = [];

    public CodeTimeline(string code) => Code = code;

    public string Code { get; }

    /// <summary>False until a definite answer says where the code is (a code learnt from an already-booked answer starts unknown).</summary>
    public bool Known { get; private set; }

    /// <summary>Where the definite answers put the code; null when gone.</summary>
    public SlotRef? Definite { get; private set; }

    /// <summary>The op that made the definite state, for the messages.</summary>
    public Operation? Because { get; private set; }

    public bool Confirmed { get; private set; }

    /// <summary>Reschedules answered OK that moved the code from a definitely known other slot: each must have sent one SMS.</summary>
    public int CertainMoves { get; private set; }

    public int PossibleMoves { get; private set; }

    public List<string> Contradictions { get; } = [];

    public bool Allows(SlotRef? state) => !Known || Equals(Definite, state) || _maybe.Contains(state);

    public IEnumerable<SlotRef?> Allowed => Known ? _maybe.Append(Definite).Distinct() : [];

    public void Apply(Operation op)
    {
        switch (op.Kind)
        {
            case OpKind.Reserve or OpKind.Retry when op.Status == 201 && op.ResultCode == Code:
                if (!Confirmed)
                {
                    // The first 201 puts the code at its slot; later 201s are replays (rule replays-return-the-same-code).
                    Confirmed = true;
                    Set(op.Slot, op);
                }
                break;
            case OpKind.Cancel:
                if (op.Outcome == Outcome.Ok)
                {
                    if (Known && Definite is null)
                    {
                        Contradictions.Add($"cancel answered OK for a code already gone: {op}");
                    }
                    Set(null, op);
                }
                else if (op.Outcome == Outcome.Unknown)
                {
                    _maybe.Add(null);
                }
                else if (op.Status == 404 && !Allows(null))
                {
                    Contradictions.Add($"cancel answered not-found for a live reservation ({Because}): {op}");
                }
                break;
            case OpKind.Reschedule:
                PossibleMoves += op.Outcome == Outcome.Fail ? 0 : 1;
                if (op.Outcome == Outcome.Ok)
                {
                    if (Known && Definite is { } from && !Equals(from, op.Slot) && _maybe.Count == 0)
                    {
                        CertainMoves++;
                    }
                    if (Known && Definite is null)
                    {
                        Contradictions.Add($"reschedule answered OK for a code already gone: {op}");
                    }
                    Set(op.Slot, op);
                }
                else if (op.Outcome == Outcome.Unknown)
                {
                    _maybe.Add(op.Slot);
                }
                else if (op.Status == 404 && !Allows(null))
                {
                    Contradictions.Add($"reschedule answered not-found for a live reservation ({Because}): {op}");
                }
                break;
            case OpKind.Lookup when op.Outcome == Outcome.Ok:
                var seen = op.ResultPlaceId is { } p && op.ResultDay is not null && op.ResultTime is not null
                    ? new SlotRef(p, op.ResultDay, SlotRef.MinuteOf(op.ResultTime)) : (SlotRef?)null;
                if (!Allows(seen))
                {
                    Contradictions.Add($"lookup saw {seen?.ToString() ?? "nothing"} where the history allows {Describe()}: {op}");
                }
                break;
            case OpKind.Lookup when op.Status == 404:
                if (!Allows(null))
                {
                    Contradictions.Add($"lookup answered not-found for a live reservation ({Because}): {op}");
                }
                break;
            default:
                break;
        }
    }

    public string Describe() => Known ? string.Join(" or ", Allowed.Select(s => s?.ToString() ?? "gone")) : "anything";

    private void Set(SlotRef? state, Operation op)
    {
        Known = true;
        Definite = state;
        Because = op;
    }
}
