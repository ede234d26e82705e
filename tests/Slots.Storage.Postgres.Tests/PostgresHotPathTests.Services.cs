using Slots.Reservations;

namespace Slots.Storage.Postgres.Tests;

/// <summary>
/// The service in the hot keys (issue 41): antigen and PCR at one place and minute are two slots with seats
/// of their own, and a person holds at most one active booking per service. Built directly in the tables,
/// with explicit keys, as Core resolves a request's service before the store.
/// </summary>
public sealed partial class PostgresHotPathTests
{
    private const int Antigen = 1;
    private const int Pcr = 2;

    [Fact]
    public async Task Antigen_and_PCR_racers_in_one_batch_on_one_minute_seat_each_in_its_service_and_a_person_may_hold_both_but_not_two_of_one()
    {
        await OfferPcrAsync();
        await SeatsAsync(minute: 900, capacity: 2, service: Antigen, minutes: 10);
        await SeatsAsync(minute: 900, capacity: 2, service: Pcr, minutes: 20);
        await SeatsAsync(minute: 700, capacity: 1); // where the booking that holds the writer goes
        var single = Instance(_first!);

        var answers = await InOneBatchAsync(single,
            Command(900, person: "both", key: "both-antigen", service: Antigen),
            Command(900, person: "both", key: "both-pcr", service: Pcr),
            Command(900, person: "both", key: "both-antigen-again", service: Antigen),
            Command(900, person: "pcr-1", key: "pcr-1", service: Pcr),
            Command(900, person: "pcr-2", key: "pcr-2", service: Pcr),
            Command(900, person: "antigen-1", key: "antigen-1", service: Antigen));

        // The batch is sorted by person, then code: the PCR seats go to "both" and "pcr-1", "pcr-2" finds
        // the PCR slot full although antigen seats were free at the same minute.
        Assert.Equal(
            new (ReservationStatus, string?, int)[]
            {
                (ReservationStatus.Reserved, "C-both-antigen", 10), (ReservationStatus.Reserved, "C-both-pcr", 20),
                (ReservationStatus.AlreadyBooked, "C-both-antigen", 10), (ReservationStatus.Reserved, "C-pcr-1", 20),
                (ReservationStatus.SlotFull, null, 20), (ReservationStatus.Reserved, "C-antigen-1", 10),
            },
            answers.Select(a => (a.Status, a.Code, a.Minutes)).ToArray());
        Assert.Equal("1:C-antigen-1,1:C-both-antigen,2:C-both-pcr,2:C-pcr-1", await ScalarAsync<string>(
            "SELECT string_agg(service_id || ':' || code, ',' ORDER BY service_id, code) FROM hot_seats WHERE start_minute = 900"));
        Assert.Equal("1:C-antigen-1,1:C-both-antigen,2:C-both-pcr,2:C-pcr-1", await ScalarAsync<string>(
            "SELECT string_agg(service_id || ':' || code, ',' ORDER BY service_id, code) FROM hot_reservations WHERE start_minute = 900"));
        Assert.Equal("1:C-both-antigen,2:C-both-pcr", await ScalarAsync<string>(
            "SELECT string_agg(service_id || ':' || code, ',' ORDER BY service_id) FROM active_persons WHERE person_hash = 'both'"));
        Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM active_persons WHERE person_hash = 'pcr-2'"));

        // Availability names each service's slot; a booking found names its service.
        var slots = await Instances[0].GetAvailabilityAsync(_place, Day, Day, CancellationToken.None);
        Assert.Equal(new[] { (Antigen, 10, 2, 0), (Pcr, 20, 2, 0) },
            slots.Where(s => s.Slot.StartMinute == 900).Select(s => (s.Slot.ServiceId, s.Minutes, s.Capacity, s.Free)).ToArray());
        Assert.Equal(new SlotKey(_place, Day, 900, Pcr), (await Instances[0].FindAsync("C-both-pcr", CancellationToken.None))!.Slot);
        Assert.Equal(new SlotKey(_place, Day, 900, Antigen), (await Instances[0].FindAsync("C-both-antigen", CancellationToken.None))!.Slot);
    }

    [Fact]
    public async Task A_PCR_booking_moves_and_cancels_within_its_service_and_the_flush_writes_its_service()
    {
        await OfferPcrAsync();
        await SeatsAsync(minute: 900, capacity: 1, service: Antigen);
        await SeatsAsync(minute: 900, capacity: 1, service: Pcr);
        await SeatsAsync(minute: 960, capacity: 1, service: Antigen);
        await SeatsAsync(minute: 1020, capacity: 1, service: Pcr);
        var proof = new ContactProof("+421900000000", null);
        var antigen = await Instances[0].ReserveAsync(Command(900, person: "mover", key: "mv-a", service: Antigen), CancellationToken.None);
        var pcr = await Instances[0].ReserveAsync(Command(900, person: "mover", key: "mv-p", service: Pcr), CancellationToken.None);
        Assert.Equal((ReservationStatus.Reserved, ReservationStatus.Reserved), (antigen!.Value.Status, pcr!.Value.Status));

        // 16:00 has only antigen seats: the PCR booking finds no slot of its service there.
        Assert.Equal(RescheduleStatus.UnknownSlot, await Instances[0].RescheduleAsync(
            new RescheduleCommand(pcr.Value.Code!, proof, new SlotKey(_place, Day, 960, Pcr), Now), CancellationToken.None));
        Assert.Equal(RescheduleStatus.Rescheduled, await Instances[0].RescheduleAsync(
            new RescheduleCommand(pcr.Value.Code!, proof, new SlotKey(_place, Day, 1020, Pcr), Now), CancellationToken.None));
        Assert.Equal("1:900:C-mv-a,2:1020:C-mv-p", await ScalarAsync<string>(
            "SELECT string_agg(service_id || ':' || start_minute || ':' || code, ',' ORDER BY service_id) FROM hot_seats WHERE code IS NOT NULL"));

        Assert.Equal(CancelStatus.Cancelled, await Instances[0].CancelAsync(new CancelCommand(pcr.Value.Code!, proof, Now), CancellationToken.None));
        Assert.Equal("1:C-mv-a", await ScalarAsync<string>(
            "SELECT string_agg(service_id || ':' || code, ',') FROM active_persons WHERE person_hash = 'mover'"));
        Assert.Equal("1:900:C-mv-a", await ScalarAsync<string>(
            "SELECT string_agg(service_id || ':' || start_minute || ':' || code, ',') FROM hot_seats WHERE code IS NOT NULL"));

        await ScalarAsync<int>("SELECT slots_flush_changes(100)");
        Assert.Equal("C-mv-a:1:900:active,C-mv-p:2:1020:cancelled", await ScalarAsync<string>("""
            SELECT string_agg(code || ':' || service_id || ':' || start_minute || ':' || CASE WHEN cancelled_at IS NULL THEN 'active' ELSE 'cancelled' END,
                              ',' ORDER BY code)
            FROM reservations
            """));
    }

    [Fact]
    public async Task A_refusal_of_the_eligibility_step_answers_NotEligible_and_writes_nothing_while_its_neighbours_book()
    {
        await OfferPcrAsync();
        await SeatsAsync(minute: 900, capacity: 5, service: Pcr);
        await SeatsAsync(minute: 700, capacity: 1); // where the booking that holds the writer goes (the default service, open to all)
        // PCR under an age rule, open to people born on or before 1960-12-31 since long before the test's clock.
        await ExecuteAsync($"""
            INSERT INTO service_eligibility (service_id, rule) VALUES ({Pcr}, 1);
            INSERT INTO service_age_steps (service_id, opens_at, born_on_or_before) VALUES ({Pcr}, 0, DATE '1960-12-31')
            """);
        var single = Instance(_first!);

        var answers = await InOneBatchAsync(single,
            Command(900, person: "too-young", key: "young", service: Pcr) with { BornOn = new DateOnly(1990, 5, 1) },
            Command(900, person: "old-enough", key: "old", service: Pcr) with { BornOn = new DateOnly(1950, 5, 1) });

        Assert.Equal(new[] { ReservationStatus.NotEligible, ReservationStatus.Reserved }, answers.Select(a => a.Status).ToArray());
        Assert.Equal((int)Eligibility.NotEligibleReason.TooYoung, answers[0].Detail);
        // Like a slot full: no seat, no person row, no key remembered, so the same request may be answered anew.
        Assert.Equal(0L, await ScalarAsync<long>("""
            SELECT (SELECT count(*) FROM active_persons WHERE person_hash = 'too-young')
                 + (SELECT count(*) FROM hot_reservations WHERE person_hash = 'too-young')
                 + (SELECT count(*) FROM idempotency WHERE key = 'young')
            """));
        Assert.Equal(1L, await ScalarAsync<long>("SELECT count(*) FROM hot_seats WHERE start_minute = 900 AND code IS NOT NULL"));
    }

    /// <summary>A second service, PCR, offered at the test's place beside the default one.</summary>
    private async Task OfferPcrAsync()
    {
        await ExecuteAsync($"""
            INSERT INTO services (id, code, name_sk, name_en) VALUES ({Pcr}, 'pcr', 'PCR test', 'PCR test') ON CONFLICT (id) DO NOTHING;
            INSERT INTO place_services (place_id, service_id, seats) VALUES ({_place}, {Pcr}, 2) ON CONFLICT DO NOTHING
            """);
    }

    private async Task ExecuteAsync(string sql)
    {
        await using var command = _first!.CreateCommand(sql);
        await command.ExecuteNonQueryAsync();
    }
}
