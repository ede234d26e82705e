using System.Diagnostics.Metrics;

namespace Slots.Admission;

/// <summary>Meter Slots.Admission: joins, status answers, the booking gate's refusals and admissions. Counts only, no personal data.</summary>
public sealed class AdmissionMetrics
{
    public const string MeterName = "Slots.WaitingRoom";

    private readonly Counter<long> _joins;
    private readonly Counter<long> _statuses;
    private readonly Counter<long> _gate;
    private readonly Counter<long> _admitted;

    public AdmissionMetrics(IMeterFactory meters)
    {
        var meter = meters.Create(MeterName);
        _joins = meter.CreateCounter<long>("slots.waiting_room.joins", "{join}", "Joins, by outcome (joined, rejoined, closed, unknown)");
        _statuses = meter.CreateCounter<long>("slots.waiting_room.status", "{answer}", "Status answers, by the state told");
        _gate = meter.CreateCounter<long>("slots.waiting_room.gate", "{booking}", "Bookings into an open opening, by the gate's verdict");
        _admitted = meter.CreateCounter<long>("slots.waiting_room.admitted", "{person}", "Positions the serving counters admitted");
    }

    public void Joined(JoinOutcome outcome) => _joins.Add(1, new KeyValuePair<string, object?>("outcome", outcome switch
    {
        JoinOutcome.Joined => "joined",
        JoinOutcome.Rejoined => "rejoined",
        JoinOutcome.Closed => "closed",
        _ => "unknown",
    }));

    public void Told(RoomState state) => _statuses.Add(1, new KeyValuePair<string, object?>("state", state.ToString()));

    public void Gated(GateVerdict verdict)
    {
        if (verdict != GateVerdict.NotGated)
        {
            _gate.Add(1, new KeyValuePair<string, object?>("verdict", verdict.ToString()));
        }
    }

    public void Admitted(long people)
    {
        if (people > 0)
        {
            _admitted.Add(people);
        }
    }
}
