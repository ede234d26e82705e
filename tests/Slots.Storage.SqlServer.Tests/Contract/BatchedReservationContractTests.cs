using Slots.Reservations;
using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer.Tests.Contract;

/// <summary>
/// Reservations through SqlServerBatcher (dbo.reserve_batch) under the races a stampede brings:
/// racers inside one batch, batches of several API instances colliding on the same rows, the same
/// person and the same key twice. Skipped unless SLOTS_SQLSERVER is set.
/// </summary>
public sealed class BatchedReservationContractTests(SqlServerDatabase db) : IClassFixture<SqlServerDatabase>
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    private static ReserveCommand Reserve(SlotKey slot, string? person = null, string? key = null) =>
        new(slot, person ?? Guid.NewGuid().ToString("N"), "+421900000001", "Test Person", "en", ConfirmationCode.New(),
            key ?? Guid.NewGuid().ToString("N"), "fp", SqlServerDatabase.Now);

    [Fact]
    public async Task Racers_inside_one_batch_fill_each_seat_once_and_the_rest_hear_SlotFull()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewPlaceAsync((1, 600, 10)))[0];

        var answers = await db.Batcher.SendAsync([.. Enumerable.Range(0, 60).Select(_ => Reserve(slot))], Ct);

        Assert.Equal(10, answers.Count(a => a!.Value.Status == ReservationStatus.Reserved));
        Assert.Equal(50, answers.Count(a => a!.Value.Status == ReservationStatus.SlotFull));
        await AssertSeatsAreDistinctAsync(slot, answers, seats: 10);
    }

    [Fact]
    public async Task A_booking_in_a_batch_is_answered_with_its_slot_length_so_its_201_reads_nothing_back()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewPlaceAsync((1, 600, 2)))[0];

        var answers = await db.Batcher.SendAsync([Reserve(slot), Reserve(slot), Reserve(slot)], Ct);

        Assert.Equal([15, 15], answers.Where(a => a!.Value.Status == ReservationStatus.Reserved).Select(a => a!.Value.Minutes));
        Assert.Equal(0, answers.Single(a => a!.Value.Status == ReservationStatus.SlotFull)!.Value.Minutes);
    }

    [Fact]
    public async Task Two_hundred_racers_on_two_instances_for_three_seats_get_three_distinct_seats()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewPlaceAsync((1, 600, 3)))[0];
        SqlServerReservationStore[] instances =
        [
            db.Instance(new SqlServerBatchOptions { Writers = 2, MaxBatch = 16 }),
            db.Instance(new SqlServerBatchOptions { Writers = 2, MaxBatch = 16 }),
        ];

        var answers = await Task.WhenAll(Enumerable.Range(0, 200)
            .Select(i => instances[i % 2].ReserveAsync(Reserve(slot), Ct).AsTask()));

        Assert.Equal(3, answers.Count(a => a!.Value.Status == ReservationStatus.Reserved));
        Assert.All(answers, a => Assert.Contains(a!.Value.Status, new[] { ReservationStatus.Reserved, ReservationStatus.SlotFull }));
        await AssertSeatsAreDistinctAsync(slot, answers, seats: 3);
    }

    [Fact]
    public async Task One_person_twice_in_one_batch_is_Reserved_once_and_AlreadyBooked_once()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slots = await db.NewPlaceAsync((1, 600, 5), (1, 660, 5));
        var person = Guid.NewGuid().ToString("N");

        var answers = await db.Batcher.SendAsync([Reserve(slots[0], person), Reserve(slots[1], person)], Ct);

        Assert.Equal([ReservationStatus.AlreadyBooked, ReservationStatus.Reserved], answers.Select(a => a!.Value.Status).Order());
        Assert.Equal(answers[0]!.Value.Code, answers[1]!.Value.Code); // the same phone is shown its booking
    }

    [Fact]
    public async Task One_person_racing_on_two_instances_for_two_slots_gets_one_and_the_other_is_AlreadyBooked()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slots = await db.NewPlaceAsync((1, 600, 5), (1, 660, 5));
        var person = Guid.NewGuid().ToString("N");
        var other = db.Instance(new SqlServerBatchOptions { Writers = 1 });

        var answers = await Task.WhenAll(
            db.Store.ReserveAsync(Reserve(slots[0], person), Ct).AsTask(),
            other.ReserveAsync(Reserve(slots[1], person), Ct).AsTask());

        Assert.Equal([ReservationStatus.Reserved, ReservationStatus.AlreadyBooked], answers.Select(a => a!.Value.Status).Order());
    }

    [Fact]
    public async Task The_same_key_twice_in_one_batch_books_once_and_replays_it()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewPlaceAsync((1, 600, 5)))[0];
        var command = Reserve(slot);

        var answers = await db.Batcher.SendAsync([command, command with { NewCode = ConfirmationCode.New() }], Ct);

        var (first, again) = (answers[0]!.Value, answers[1]!.Value);
        Assert.Equal(ReservationStatus.Reserved, first.Status);
        Assert.Equal(first with { Replayed = true }, again);
        Assert.Equal(4, (await db.Store.GetAvailabilityAsync(slot.PlaceId, slot.Day, slot.Day, Ct))[0].Free);
    }

    [Fact]
    public async Task Fifty_same_key_requests_on_two_instances_book_once_and_the_rest_replay_it()
    {
        SqlServerDatabase.SkipUnlessConfigured();
        var slot = (await db.NewPlaceAsync((1, 600, 5)))[0];
        var command = Reserve(slot);
        SqlServerReservationStore[] instances = [db.Store, db.Instance(new SqlServerBatchOptions { Writers = 2, MaxBatch = 8 })];

        var answers = await Task.WhenAll(Enumerable.Range(0, 50)
            .Select(i => instances[i % 2].ReserveAsync(command with { NewCode = ConfirmationCode.New() }, Ct).AsTask()));

        Assert.All(answers, a => Assert.Equal(ReservationStatus.Reserved, a!.Value.Status));
        Assert.Single(answers.Select(a => a!.Value.Code).Distinct());
        Assert.Equal(49, answers.Count(a => a!.Value.Replayed));
        Assert.Equal(4, (await db.Store.GetAvailabilityAsync(slot.PlaceId, slot.Day, slot.Day, Ct))[0].Free);
    }

    private async Task AssertSeatsAreDistinctAsync(SlotKey slot, IEnumerable<ReserveResult?> answers, int seats)
    {
        var booked = await Task.WhenAll(answers.Where(a => a!.Value.Status == ReservationStatus.Reserved)
            .Select(a => db.Store.FindAsync(a!.Value.Code!, Ct)));
        Assert.Equal(seats, booked.Select(b => b!.SeatNo).Distinct().Count());
        Assert.Equal(0, (await db.Store.GetAvailabilityAsync(slot.PlaceId, slot.Day, slot.Day, Ct))[0].Free);
    }
}
