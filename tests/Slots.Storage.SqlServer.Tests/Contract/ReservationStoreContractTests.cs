using Slots.Reservations;

namespace Slots.Storage.SqlServer.Tests.Contract;

/// <summary>
/// IReservationStore's semantics, as the SQLite adapter (SqliteHotPath) defines them, against a
/// real SQL Server. Skipped unless SLOTS_SQLSERVER is set.
/// </summary>
public sealed class ReservationStoreContractTests(SqlServerDatabase db) : IClassFixture<SqlServerDatabase>
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    private static ReserveCommand Reserve(SlotKey slot, string? person = null, string phone = "+421900000001", string? key = null, string fingerprint = "fp") =>
        new(slot, person ?? Guid.NewGuid().ToString("N"), phone, "Test Person", "en", ConfirmationCode.New(),
            key ?? Guid.NewGuid().ToString("N"), fingerprint, SqlServerDatabase.Now);

    [Fact]
    public async Task Reserve_takes_a_free_seat_and_availability_counts_it()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewPlaceAsync((1, 600, 3)))[0];

        var result = await db.Store.ReserveAsync(Reserve(slot), Ct);

        Assert.Equal(ReservationStatus.Reserved, result!.Value.Status);
        Assert.False(result.Value.Replayed);
        var availability = Assert.Single(await db.Store.GetAvailabilityAsync(slot.PlaceId, slot.Day, slot.Day, Ct));
        Assert.Equal((3, 2, 15), (availability.Capacity, availability.Free, availability.Minutes));
        var found = await db.Store.FindAsync(result.Value.Code!, Ct);
        Assert.Equal(slot, found!.Slot);
        Assert.Equal(1, await db.CountAsync("outbox", result.Value.Code!));
        Assert.Equal(1, await db.CountAsync("changes", result.Value.Code!));
    }

    [Fact]
    public async Task Reserve_answers_SlotFull_when_every_seat_is_taken()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewPlaceAsync((1, 600, 1)))[0];
        await db.Store.ReserveAsync(Reserve(slot), Ct);

        var result = await db.Store.ReserveAsync(Reserve(slot), Ct);

        Assert.Equal(new ReserveResult(ReservationStatus.SlotFull, null), result);
    }

    [Fact]
    public async Task Reserve_answers_AlreadyBooked_showing_the_code_only_to_the_same_phone()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slots = await db.NewPlaceAsync((1, 600, 5), (1, 660, 5));
        var person = Guid.NewGuid().ToString("N");
        var first = await db.Store.ReserveAsync(Reserve(slots[0], person, phone: "+421900000001"), Ct);

        var samePhone = await db.Store.ReserveAsync(Reserve(slots[1], person, phone: "+421900000001"), Ct);
        var otherPhone = await db.Store.ReserveAsync(Reserve(slots[1], person, phone: "+421900000002"), Ct);

        Assert.Equal(new ReserveResult(ReservationStatus.AlreadyBooked, first!.Value.Code), samePhone);
        Assert.Equal(new ReserveResult(ReservationStatus.AlreadyBooked, null), otherPhone);
    }

    [Fact]
    public async Task Reserve_replays_the_recorded_answer_for_a_repeated_key()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewPlaceAsync((1, 600, 5)))[0];
        var command = Reserve(slot);
        var first = await db.Store.ReserveAsync(command, Ct);

        var again = await db.Store.ReserveAsync(command with { NewCode = ConfirmationCode.New() }, Ct);

        Assert.Equal(first!.Value with { Replayed = true }, again);
        Assert.Equal(4, (await db.Store.GetAvailabilityAsync(slot.PlaceId, slot.Day, slot.Day, Ct))[0].Free);
    }

    [Fact]
    public async Task Reserve_answers_null_when_the_key_came_with_another_request()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewPlaceAsync((1, 600, 5)))[0];
        var command = Reserve(slot, fingerprint: "first");
        await db.Store.ReserveAsync(command, Ct);

        var reused = await db.Store.ReserveAsync(Reserve(slot, key: command.IdempotencyKey, fingerprint: "second"), Ct);

        Assert.Null(reused);
    }

    [Fact]
    public async Task Reserve_answers_UnknownSlot_and_SlotStarted()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewPlaceAsync((0, 60, 5)))[0];   // today 01:00 UTC: started at noon

        var unknown = await db.Store.ReserveAsync(Reserve(slot with { StartMinute = 61 }), Ct);
        var started = await db.Store.ReserveAsync(Reserve(slot), Ct);

        Assert.Equal(ReservationStatus.UnknownSlot, unknown!.Value.Status);
        Assert.Equal(ReservationStatus.SlotStarted, started!.Value.Status);
    }

    [Fact]
    public async Task Cancel_needs_the_phone_or_the_person_and_frees_the_seat()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewPlaceAsync((1, 600, 1)))[0];
        var command = Reserve(slot);
        var code = (await db.Store.ReserveAsync(command, Ct))!.Value.Code!;

        var stranger = await db.Store.CancelAsync(new CancelCommand(code, new ContactProof("+421999999999", null), SqlServerDatabase.Now), Ct);
        var owner = await db.Store.CancelAsync(new CancelCommand(code, new ContactProof(null, command.PersonHash), SqlServerDatabase.Now), Ct);
        var twice = await db.Store.CancelAsync(new CancelCommand(code, new ContactProof(command.Phone, null), SqlServerDatabase.Now), Ct);

        Assert.Equal((CancelStatus.NotFound, CancelStatus.Cancelled, CancelStatus.NotFound), (stranger, owner, twice));
        Assert.Equal(1, (await db.Store.GetAvailabilityAsync(slot.PlaceId, slot.Day, slot.Day, Ct))[0].Free);
        Assert.Null(await db.Store.FindAsync(code, Ct));
        // The person may book again.
        Assert.Equal(ReservationStatus.Reserved, (await db.Store.ReserveAsync(Reserve(slot, command.PersonHash), Ct))!.Value.Status);
    }

    [Fact]
    public async Task Reschedule_moves_the_seat_and_answers_the_target_s_problems()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slots = await db.NewPlaceAsync((1, 600, 1), (1, 660, 1), (2, 600, 1));
        var command = Reserve(slots[0]);
        var code = (await db.Store.ReserveAsync(command, Ct))!.Value.Code!;
        await db.Store.ReserveAsync(Reserve(slots[2]), Ct);
        var proof = new ContactProof(command.Phone, null);
        RescheduleCommand To(SlotKey target) => new(code, proof, target, SqlServerDatabase.Now);

        Assert.Equal(RescheduleStatus.UnknownSlot, await db.Store.RescheduleAsync(To(slots[1] with { StartMinute = 661 }), Ct));
        Assert.Equal(RescheduleStatus.SlotFull, await db.Store.RescheduleAsync(To(slots[2]), Ct));
        Assert.Equal(RescheduleStatus.Rescheduled, await db.Store.RescheduleAsync(To(slots[1]), Ct));
        Assert.Equal(RescheduleStatus.Rescheduled, await db.Store.RescheduleAsync(To(slots[1]), Ct)); // a retry
        Assert.Equal(RescheduleStatus.NotFound,
            await db.Store.RescheduleAsync(new RescheduleCommand(code, new ContactProof("+421999999999", null), slots[0], SqlServerDatabase.Now), Ct));

        var availability = await db.Store.GetAvailabilityAsync(slots[0].PlaceId, slots[0].Day, slots[2].Day, Ct);
        Assert.Equal([1, 0, 0], availability.Select(a => a.Free));
        Assert.Equal(slots[1], (await db.Store.FindAsync(code, Ct))!.Slot);
    }

    [Fact]
    public async Task Racers_on_one_slot_fill_every_seat_once_and_the_rest_hear_SlotFull()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewPlaceAsync((1, 600, 10)))[0];

        var results = await Task.WhenAll(Enumerable.Range(0, 60).Select(_ => db.Store.ReserveAsync(Reserve(slot), Ct).AsTask()));

        Assert.Equal(10, results.Count(r => r!.Value.Status == ReservationStatus.Reserved));
        Assert.All(results, r => Assert.Contains(r!.Value.Status, new[] { ReservationStatus.Reserved, ReservationStatus.SlotFull }));
        var seats = await Task.WhenAll(results.Where(r => r!.Value.Status == ReservationStatus.Reserved)
            .Select(r => db.Store.FindAsync(r!.Value.Code!, Ct)));
        Assert.Equal(10, seats.Select(s => s!.SeatNo).Distinct().Count());
        Assert.Equal(0, (await db.Store.GetAvailabilityAsync(slot.PlaceId, slot.Day, slot.Day, Ct))[0].Free);
    }

    [Fact]
    public async Task A_batch_answers_each_request_as_a_single_reserve_would()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewPlaceAsync((1, 600, 2)))[0];
        var person = Guid.NewGuid().ToString("N");
        ReserveCommand[] batch = [Reserve(slot, person), Reserve(slot, person), Reserve(slot), Reserve(slot)];

        var answers = await db.Batcher.SendAsync(batch, Ct);

        Assert.Equal(
            [ReservationStatus.Reserved, ReservationStatus.AlreadyBooked, ReservationStatus.Reserved, ReservationStatus.SlotFull],
            answers.Select(a => a!.Value.Status));
    }
}
