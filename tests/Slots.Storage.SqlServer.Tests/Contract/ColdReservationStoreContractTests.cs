using Slots.Reservations;

namespace Slots.Storage.SqlServer.Tests.Contract;

/// <summary>
/// IColdReservationStore's semantics, as ColdReservationStore (the EF Core cold path of SQLite and
/// PostgreSQL) defines them, against a real SQL Server through the cold procs (sql/040-045).
/// Every place here starts with its horizon at today, so all its days are cold until the test
/// moves them into the window. Skipped unless SLOTS_SQLSERVER is set.
/// </summary>
public sealed class ColdReservationStoreContractTests(SqlServerDatabase db) : IClassFixture<SqlServerDatabase>
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    private static DateOnly Today => DateOnly.FromDateTime(SqlServerDatabase.Now.UtcDateTime);

    private static ReserveCommand Reserve(SlotKey slot, string? person = null, string phone = "+421900000001", string? key = null, string fingerprint = "fp") =>
        new(slot, person ?? Guid.NewGuid().ToString("N"), phone, "Test Person", "en", ConfirmationCode.New(),
            key ?? Guid.NewGuid().ToString("N"), fingerprint, SqlServerDatabase.Now);

    private async Task<(string Code, ReserveCommand Command)> BookedAsync(SlotKey slot, string? person = null)
    {
        var command = Reserve(slot, person);
        var answer = await db.ColdStore.ReserveAsync(command, Ct);
        Assert.Equal((ColdRoute.Done, ReservationStatus.Reserved), (answer.Route, answer.Value!.Value.Status));
        return (answer.Value.Value.Code!, command);
    }

    private async Task<SlotAvailability> FreeAsync(SlotKey slot) =>
        Assert.Single((await db.ColdStore.AvailabilityAsync(slot.PlaceId, slot.Day, slot.Day, Ct)).Slots, s => s.Slot == slot);

    [Fact]
    public async Task A_cold_reservation_is_a_disk_row_with_an_outbox_row_and_no_change_record()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewColdPlaceAsync((40, 600, 3)))[0];

        var (code, command) = await BookedAsync(slot);

        var found = await db.ColdStore.FindAsync(code, Ct);
        Assert.Equal((slot, 1, command.Phone, command.PersonHash, 15), (found!.Slot, found.SeatNo, found.Phone, found.PersonHash, found.Minutes));
        Assert.Equal(2, (await FreeAsync(slot)).Free);
        Assert.Equal(Today, (await db.ColdStore.AvailabilityAsync(slot.PlaceId, slot.Day, slot.Day, Ct)).Horizon);
        Assert.Equal(1, await db.CountAsync("outbox", code));
        Assert.Equal(0, await db.CountAsync("changes", code));
        Assert.Equal(0, await db.CountAsync("hot_reservations", code));
        Assert.Null(await db.Store.FindAsync(code, Ct));
    }

    [Fact]
    public async Task Seats_are_given_lowest_first_and_a_full_slot_answers_SlotFull()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewColdPlaceAsync((40, 600, 2)))[0];
        await BookedAsync(slot);
        await BookedAsync(slot);

        var full = await db.ColdStore.ReserveAsync(Reserve(slot), Ct);

        Assert.Equal(new Cold<ReserveResult?>(ColdRoute.Done, new ReserveResult(ReservationStatus.SlotFull, null)), full);
        Assert.Equal([1, 2], (await db.DiskRowsAsync(slot.PlaceId)).Select(r => r.SeatNo).Order());
    }

    [Fact]
    public async Task A_cancelled_seat_is_given_again()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewColdPlaceAsync((40, 600, 2)))[0];
        var (first, command) = await BookedAsync(slot);
        await BookedAsync(slot);
        await db.ColdStore.CancelAsync(new CancelCommand(first, new ContactProof(command.Phone, null), SqlServerDatabase.Now), Ct);

        var (again, _) = await BookedAsync(slot);

        Assert.Equal(1, (await db.ColdStore.FindAsync(again, Ct))!.SeatNo);
    }

    [Fact]
    public async Task AlreadyBooked_shows_the_code_only_to_the_same_phone_for_a_cold_or_a_hot_holder()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var cold = await db.NewColdPlaceAsync((40, 600, 5), (41, 600, 5));
        var hot = (await db.NewPlaceAsync((1, 600, 5)))[0];
        var coldHolder = Guid.NewGuid().ToString("N");
        var hotHolder = Guid.NewGuid().ToString("N");
        var (coldCode, _) = await BookedAsync(cold[0], coldHolder);
        var hotCode = (await db.Store.ReserveAsync(Reserve(hot, hotHolder), Ct))!.Value.Code!;

        var samePhoneCold = await db.ColdStore.ReserveAsync(Reserve(cold[1], coldHolder, phone: "+421900000001"), Ct);
        var otherPhoneCold = await db.ColdStore.ReserveAsync(Reserve(cold[1], coldHolder, phone: "+421900000002"), Ct);
        var samePhoneHot = await db.ColdStore.ReserveAsync(Reserve(cold[1], hotHolder, phone: "+421900000001"), Ct);
        var otherPhoneHot = await db.ColdStore.ReserveAsync(Reserve(cold[1], hotHolder, phone: "+421900000002"), Ct);

        Assert.Equal(new ReserveResult(ReservationStatus.AlreadyBooked, coldCode), samePhoneCold.Value);
        Assert.Equal(new ReserveResult(ReservationStatus.AlreadyBooked, null), otherPhoneCold.Value);
        Assert.Equal(new ReserveResult(ReservationStatus.AlreadyBooked, hotCode), samePhoneHot.Value);
        Assert.Equal(new ReserveResult(ReservationStatus.AlreadyBooked, null), otherPhoneHot.Value);
        Assert.Equal(5, (await FreeAsync(cold[1])).Free);
    }

    [Fact]
    public async Task A_person_whose_reservation_has_ended_may_book_again()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewColdPlaceAsync((40, 600, 1)))[0];
        var person = Guid.NewGuid().ToString("N");
        await db.AddEndedPersonAsync(person, ConfirmationCode.New());

        var (code, _) = await BookedAsync(slot, person);

        Assert.NotNull(await db.ColdStore.FindAsync(code, Ct));
    }

    [Fact]
    public async Task A_repeated_key_replays_and_a_reused_key_answers_null()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewColdPlaceAsync((40, 600, 5)))[0];
        var command = Reserve(slot, fingerprint: "first");
        var first = await db.ColdStore.ReserveAsync(command, Ct);

        var again = await db.ColdStore.ReserveAsync(command with { NewCode = ConfirmationCode.New() }, Ct);
        var reused = await db.ColdStore.ReserveAsync(Reserve(slot, key: command.IdempotencyKey, fingerprint: "second"), Ct);

        Assert.Equal(first.Value!.Value with { Replayed = true }, again.Value);
        Assert.Equal(new Cold<ReserveResult?>(ColdRoute.Done, null), reused);
        Assert.Equal(4, (await FreeAsync(slot)).Free);
    }

    [Fact]
    public async Task An_unknown_or_started_slot_is_answered_and_recorded_under_the_key()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewColdPlaceAsync((0, 60, 5)))[0];   // today 01:00 UTC: started at noon
        var unknown = Reserve(slot with { StartMinute = 61 });

        Assert.Equal(ReservationStatus.UnknownSlot, (await db.ColdStore.ReserveAsync(unknown, Ct)).Value!.Value.Status);
        Assert.Equal(ReservationStatus.SlotStarted, (await db.ColdStore.ReserveAsync(Reserve(slot), Ct)).Value!.Value.Status);
        Assert.True((await db.ColdStore.ReserveAsync(unknown, Ct)).Value!.Value.Replayed);
        Assert.Empty(await db.DiskRowsAsync(slot.PlaceId));
    }

    [Fact]
    public async Task A_day_moved_into_the_window_answers_NowHot_and_changes_nothing()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewColdPlaceAsync((2, 600, 3)))[0];
        await db.MoveIntoWindowAsync(slot.PlaceId, slot.Day);
        var command = Reserve(slot);

        var cold = await db.ColdStore.ReserveAsync(command, Ct);
        var hot = await db.Store.ReserveAsync(command, Ct);

        Assert.Equal(new Cold<ReserveResult?>(ColdRoute.NowHot, null), cold);
        Assert.False(hot!.Value.Replayed); // the cold call recorded nothing under the key
        Assert.Equal(ReservationStatus.Reserved, hot.Value.Status);
        Assert.Empty(await db.DiskRowsAsync(slot.PlaceId));
        Assert.Empty((await db.ColdStore.AvailabilityAsync(slot.PlaceId, slot.Day, slot.Day, Ct)).Slots);
    }

    [Fact]
    public async Task Moving_a_day_in_makes_its_cold_reservations_hot()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewColdPlaceAsync((2, 600, 2)))[0];
        var (code, command) = await BookedAsync(slot);

        await db.MoveIntoWindowAsync(slot.PlaceId, slot.Day);

        Assert.Null(await db.ColdStore.FindAsync(code, Ct));
        Assert.Equal(slot, (await db.Store.FindAsync(code, Ct))!.Slot);
        Assert.Equal(1, Assert.Single(await db.Store.GetAvailabilityAsync(slot.PlaceId, slot.Day, slot.Day, Ct)).Free);
        var cancel = new CancelCommand(code, new ContactProof(command.Phone, null), SqlServerDatabase.Now);
        Assert.Equal(new Cold<CancelStatus>(ColdRoute.NowHot, CancelStatus.NotFound), await db.ColdStore.CancelAsync(cancel, Ct));
        Assert.Equal(CancelStatus.Cancelled, await db.Store.CancelAsync(cancel, Ct));
    }

    [Fact]
    public async Task Cancel_needs_the_phone_or_the_person_frees_the_seat_and_announces_it()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewColdPlaceAsync((40, 600, 1)))[0];
        var (code, command) = await BookedAsync(slot);
        CancelCommand By(ContactProof proof) => new(code, proof, SqlServerDatabase.Now);

        var stranger = await db.ColdStore.CancelAsync(By(new ContactProof("+421999999999", null)), Ct);
        var owner = await db.ColdStore.CancelAsync(By(new ContactProof(null, command.PersonHash)), Ct);
        var twice = await db.ColdStore.CancelAsync(By(new ContactProof(command.Phone, null)), Ct);

        Assert.Equal([CancelStatus.NotFound, CancelStatus.Cancelled, CancelStatus.NotFound], new[] { stranger, owner, twice }.Select(a => a.Value));
        Assert.All(new[] { stranger, owner, twice }, a => Assert.Equal(ColdRoute.Done, a.Route));
        Assert.Equal(1, (await FreeAsync(slot)).Free);
        Assert.Null(await db.ColdStore.FindAsync(code, Ct));
        Assert.True(Assert.Single(await db.DiskRowsAsync(slot.PlaceId)).Cancelled);
        Assert.Equal(2, await db.CountAsync("outbox", code));
        Assert.Equal(0, await db.CountAsync("changes", code));
        await BookedAsync(slot, command.PersonHash); // the person may book again
    }

    [Fact]
    public async Task A_started_reservation_is_neither_cancelled_nor_moved()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slots = await db.NewColdPlaceAsync((40, 600, 1), (40, 660, 1));
        var (code, command) = await BookedAsync(slots[0]);
        var later = SqlServerDatabase.Now.AddDays(41);
        var proof = new ContactProof(command.Phone, null);

        var cancel = await db.ColdStore.CancelAsync(new CancelCommand(code, proof, later), Ct);
        var move = await db.ColdStore.RescheduleAsync(new RescheduleCommand(code, proof, slots[1], later), Ct);

        Assert.Equal(new Cold<CancelStatus>(ColdRoute.Done, CancelStatus.Started), cancel);
        Assert.Equal(new Cold<RescheduleStatus>(ColdRoute.Done, RescheduleStatus.Started), move);
        Assert.False(Assert.Single(await db.DiskRowsAsync(slots[0].PlaceId)).Cancelled);
    }

    [Fact]
    public async Task Reschedule_moves_the_seat_and_answers_the_target_s_problems()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slots = await db.NewColdPlaceAsync((40, 600, 1), (40, 660, 1), (41, 600, 1), (0, 60, 1));
        var (code, command) = await BookedAsync(slots[0]);
        await BookedAsync(slots[2]);
        var proof = new ContactProof(command.Phone, null);
        async Task<RescheduleStatus> MoveAsync(SlotKey target, ContactProof? by = null)
        {
            var answer = await db.ColdStore.RescheduleAsync(new RescheduleCommand(code, by ?? proof, target, SqlServerDatabase.Now), Ct);
            Assert.Equal(ColdRoute.Done, answer.Route);
            return answer.Value;
        }

        Assert.Equal(RescheduleStatus.UnknownSlot, await MoveAsync(slots[1] with { StartMinute = 661 }));
        Assert.Equal(RescheduleStatus.SlotStarted, await MoveAsync(slots[3]));
        Assert.Equal(RescheduleStatus.SlotFull, await MoveAsync(slots[2]));
        Assert.Equal(RescheduleStatus.NotFound, await MoveAsync(slots[1], new ContactProof("+421999999999", null)));
        Assert.Equal(RescheduleStatus.Rescheduled, await MoveAsync(slots[1]));
        Assert.Equal(RescheduleStatus.Rescheduled, await MoveAsync(slots[1])); // a retry

        Assert.Equal(1, (await FreeAsync(slots[0])).Free);
        Assert.Equal(0, (await FreeAsync(slots[1])).Free);
        Assert.Equal(slots[1], (await db.ColdStore.FindAsync(code, Ct))!.Slot);
        Assert.Equal(2, await db.CountAsync("outbox", code)); // reserved, rescheduled once
    }

    [Fact]
    public async Task A_move_to_a_hot_day_answers_AcrossWindow_and_a_move_of_a_hot_day_NowHot()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var cold = await db.NewColdPlaceAsync((2, 600, 1), (40, 600, 1), (40, 660, 1));
        var hot = (await db.NewPlaceAsync((1, 600, 1)))[0];
        var (code, command) = await BookedAsync(cold[1]);
        var (moving, movingCommand) = await BookedAsync(cold[0]);
        var proof = new ContactProof(command.Phone, null);

        var across = await db.ColdStore.RescheduleAsync(new RescheduleCommand(code, proof, hot, SqlServerDatabase.Now), Ct);
        await db.MoveIntoWindowAsync(cold[0].PlaceId, cold[0].Day);
        var nowHot = await db.ColdStore.RescheduleAsync(
            new RescheduleCommand(moving, new ContactProof(movingCommand.Phone, null), cold[2], SqlServerDatabase.Now), Ct);

        Assert.Equal(new Cold<RescheduleStatus>(ColdRoute.AcrossWindow, RescheduleStatus.UnknownSlot), across);
        Assert.Equal(new Cold<RescheduleStatus>(ColdRoute.NowHot, RescheduleStatus.NotFound), nowHot);
        Assert.Equal(cold[1], (await db.ColdStore.FindAsync(code, Ct))!.Slot);
        Assert.Equal(1, (await FreeAsync(cold[2])).Free);
    }

    [Fact]
    public async Task A_move_between_two_cold_places_takes_a_seat_at_the_other_place()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var here = (await db.NewColdPlaceAsync((40, 600, 1)))[0];
        var there = (await db.NewColdPlaceAsync((41, 600, 1)))[0];
        var (code, command) = await BookedAsync(there);

        var moved = await db.ColdStore.RescheduleAsync(new RescheduleCommand(code, new ContactProof(command.Phone, null), here, SqlServerDatabase.Now), Ct);

        Assert.Equal(new Cold<RescheduleStatus>(ColdRoute.Done, RescheduleStatus.Rescheduled), moved);
        Assert.Equal((0, 1), ((await FreeAsync(here)).Free, (await FreeAsync(there)).Free));
    }

    [Fact]
    public async Task Racers_on_one_cold_slot_fill_every_seat_once_and_the_rest_hear_SlotFull()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewColdPlaceAsync((40, 600, 5)))[0];

        var results = await Task.WhenAll(Enumerable.Range(0, 40).Select(_ => db.ColdStore.ReserveAsync(Reserve(slot), Ct)));

        Assert.Equal(5, results.Count(r => r.Value!.Value.Status == ReservationStatus.Reserved));
        Assert.All(results, r => Assert.Contains(r.Value!.Value.Status, new[] { ReservationStatus.Reserved, ReservationStatus.SlotFull }));
        Assert.Equal([1, 2, 3, 4, 5], (await db.DiskRowsAsync(slot.PlaceId)).Select(r => r.SeatNo).Order());
    }

    [Fact]
    public async Task A_person_racing_for_a_hot_and_a_cold_slot_gets_exactly_one()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var cold = (await db.NewColdPlaceAsync((40, 600, 10)))[0];
        var hot = (await db.NewPlaceAsync((1, 600, 10)))[0];
        for (var round = 0; round < 5; round++)
        {
            var person = Guid.NewGuid().ToString("N");
            var coldCall = db.ColdStore.ReserveAsync(Reserve(cold, person), Ct);
            var hotCall = db.Store.ReserveAsync(Reserve(hot, person), Ct).AsTask();
            await Task.WhenAll(coldCall, hotCall);

            var statuses = new[] { (await coldCall).Value!.Value.Status, (await hotCall)!.Value.Status };
            Assert.Equal(1, statuses.Count(s => s == ReservationStatus.Reserved));
            Assert.Equal(1, statuses.Count(s => s == ReservationStatus.AlreadyBooked));
        }
    }

    [Fact]
    public async Task Racing_reschedules_into_the_last_seat_give_it_to_one()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slots = await db.NewColdPlaceAsync((40, 600, 1), (40, 610, 1), (40, 650, 1));
        var (a, commandA) = await BookedAsync(slots[0]);
        var (b, commandB) = await BookedAsync(slots[1]);

        var answers = await Task.WhenAll(
            db.ColdStore.RescheduleAsync(new RescheduleCommand(a, new ContactProof(commandA.Phone, null), slots[2], SqlServerDatabase.Now), Ct),
            db.ColdStore.RescheduleAsync(new RescheduleCommand(b, new ContactProof(commandB.Phone, null), slots[2], SqlServerDatabase.Now), Ct));

        Assert.Equal([RescheduleStatus.Rescheduled, RescheduleStatus.SlotFull], answers.Select(x => x.Value).Order());
        var rows = await db.DiskRowsAsync(slots[0].PlaceId);
        Assert.Single(rows, r => r.StartMinute == 650);
        Assert.Equal(2, rows.Select(r => (r.StartMinute, r.SeatNo)).Distinct().Count());
    }

    [Fact]
    public async Task A_window_move_racing_cold_writers_loses_no_reservation_and_shares_no_seat()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewColdPlaceAsync((3, 600, 8)))[0];

        var writers = Enumerable.Range(0, 24).Select(_ => db.ColdStore.ReserveAsync(Reserve(slot), Ct)).ToList();
        var move = db.MoveIntoWindowAsync(slot.PlaceId, slot.Day);
        var answers = await Task.WhenAll(writers);
        await move;

        // Writers that came before the move booked on disk and were copied in; the rest were told NowHot.
        var reserved = answers.Where(a => a.Route == ColdRoute.Done && a.Value!.Value.Status == ReservationStatus.Reserved).ToList();
        Assert.All(answers, a => Assert.True(a.Route == ColdRoute.NowHot || a.Value!.Value.Status is ReservationStatus.Reserved or ReservationStatus.SlotFull));
        foreach (var r in reserved)
        {
            Assert.Equal(slot, (await db.Store.FindAsync(r.Value!.Value.Code!, Ct))!.Slot);
        }
        var hot = Assert.Single(await db.Store.GetAvailabilityAsync(slot.PlaceId, slot.Day, slot.Day, Ct));
        Assert.Equal(8 - reserved.Count, hot.Free);
    }
}
