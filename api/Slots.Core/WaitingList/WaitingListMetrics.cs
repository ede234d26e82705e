using System.Diagnostics.Metrics;

namespace Slots.WaitingList;

/// <summary>Meter Slots.WaitingList: joins, offers made, claimed and expired, and the time from an offer to its claim. Counts only.</summary>
public sealed class WaitingListMetrics
{
    public const string MeterName = "Slots.WaitingList";

    private readonly Counter<long> _joined;
    private readonly Counter<long> _offered;
    private readonly Counter<long> _claimed;
    private readonly Counter<long> _expired;
    private readonly Counter<long> _left;
    private readonly Histogram<double> _toClaim;
    private long _waiting;

    public WaitingListMetrics(IMeterFactory meters)
    {
        var meter = meters.Create(MeterName);
        _joined = meter.CreateCounter<long>("slots.waiting_list.joined", "{entry}", "People who joined a place's waiting list, by place");
        _offered = meter.CreateCounter<long>("slots.waiting_list.offers", "{offer}", "Seats held and offered to the next in line");
        _claimed = meter.CreateCounter<long>("slots.waiting_list.claimed", "{offer}", "Offers claimed (booked), by place");
        _expired = meter.CreateCounter<long>("slots.waiting_list.expired", "{offer}", "Offers whose hold ran out; the seat went on");
        _left = meter.CreateCounter<long>("slots.waiting_list.left", "{entry}", "Entries that left the list because their person booked elsewhere");
        _toClaim = meter.CreateHistogram<double>("slots.waiting_list.offer_to_claim", "s", "Time from a seat's offer to its claim");
        meter.CreateObservableGauge("slots.waiting_list.length", () => Interlocked.Read(ref _waiting), "{entry}", "People waiting or offered, all places, at the offer job's last run");
    }

    public void Joined(int placeId) => _joined.Add(1, new KeyValuePair<string, object?>("place", placeId));

    public void Claimed(int placeId, TimeSpan sinceOffer)
    {
        _claimed.Add(1, new KeyValuePair<string, object?>("place", placeId));
        _toClaim.Record(Math.Max(0, sinceOffer.TotalSeconds));
    }

    public void Step(OfferStep step, long waiting)
    {
        _offered.Add(step.Offered);
        _expired.Add(step.Expired);
        _left.Add(step.Left);
        Interlocked.Exchange(ref _waiting, waiting);
    }
}
