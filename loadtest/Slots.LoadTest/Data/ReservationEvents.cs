namespace Slots.LoadTest.Data;

/// <summary>
/// What a Slots database (PostgreSQL or SQLite) holds in two places since a new booking carries its own SMS and
/// change record on its hot reservation row, written once for the benchmark audit and the chaos checker.
/// </summary>
internal static class ReservationEvents
{
    /// <summary>
    /// Every SMS message (id, kind, code, sent): the outbox's rows and the confirmations new bookings
    /// still carry on their hot reservation rows (moved to the outbox when the row goes).
    /// </summary>
    public const string SmsMessages = """
        SELECT id, kind, code, sent_at IS NOT NULL AS sent FROM outbox
        UNION ALL SELECT event_id, 1, code, NOT sms_pending FROM hot_reservations WHERE event_id IS NOT NULL
        """;

    /// <summary>Changes still waiting for the flush: change records and new bookings not yet written to disk.</summary>
    public const string PendingChanges = "SELECT (SELECT count(*) FROM changes) + (SELECT count(*) FROM hot_reservations WHERE flush_pending)";
}
