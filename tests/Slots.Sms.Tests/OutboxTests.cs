using Microsoft.EntityFrameworkCore;
using Slots.Reservations;
using Slots.Sms.Tests.Infrastructure;
using Slots.Storage;
using Slots.Testing;

namespace Slots.Sms.Tests;

/// <summary>
/// The SMS is written with the booking change itself, and only then: an outbox row, or on
/// PostgreSQL, for a new booking, the confirmation its hot reservation row carries.
/// </summary>
public sealed class OutboxTests
{
    [Theory]
    [InlineData(Backend.Sqlite)]
    [InlineData(Backend.Postgres)]
    public async Task Booking_that_fails_because_the_slot_is_full_writes_no_outbox_row(Backend backend)
    {
        await using var world = await StartAsync(backend, capacity: 1);
        var slot = world.Slot(0, 1);

        var first = await world.ReserveAsync(slot);
        var second = await world.ReserveAsync(slot);

        Assert.Equal(ReservationStatus.Reserved, first.Status);
        Assert.Equal(ReservationStatus.SlotFull, second.Status);
        var rows = await world.UnsentRowsAsync();
        var row = Assert.Single(rows);
        Assert.Equal(ChangeKind.Reserved, row.Kind);
        Assert.Equal(first.Code, row.Code);
    }

    [Theory]
    [InlineData(Backend.Sqlite)]
    [InlineData(Backend.Postgres)]
    public async Task Reserve_reschedule_and_cancel_each_write_one_outbox_row_in_order(Backend backend)
    {
        await using var world = await StartAsync(backend, capacity: 1);
        var (answer, phone) = await world.BookAsync(world.Slot(0, 1));
        var proof = new ContactProof(phone, null);

        var moved = await world.Reservations.RescheduleAsync(answer.Code!, proof, world.Slot(1, 1), CancellationToken.None);
        var movedToFull = await world.Reservations.RescheduleAsync(answer.Code!, proof, world.Slot(1, 1), CancellationToken.None);
        var cancelled = await world.Reservations.CancelAsync(answer.Code!, proof, CancellationToken.None);
        var cancelledAgain = await world.Reservations.CancelAsync(answer.Code!, proof, CancellationToken.None);

        Assert.Equal(RescheduleStatus.Rescheduled, moved.Status);
        Assert.Equal(RescheduleStatus.Rescheduled, movedToFull.Status); // a retried reschedule: no second SMS
        Assert.Equal(CancelStatus.Cancelled, cancelled);
        Assert.Equal(CancelStatus.Cancelled, cancelledAgain); // a retried cancel: answered as the first, no second SMS
        var rows = await world.WithDbAsync(db => db.Outbox.AsNoTracking().OrderBy(o => o.Id).ToListAsync());
        Assert.Equal([(int)ChangeKind.Reserved, (int)ChangeKind.Rescheduled, (int)ChangeKind.Cancelled], rows.Select(r => r.Kind));
        Assert.All(rows, r => Assert.Equal(answer.Code, r.Code));
        Assert.Equal(world.Slot(1, 1).StartMinute, rows[1].StartMinute); // the new time, for the SMS
    }

    private static async Task<SmsWorld> StartAsync(Backend backend, int capacity)
    {
        try
        {
            return await SmsWorld.StartAsync(backend, rabbitUri: null, new RecordingSender(), capacity: capacity);
        }
        catch (PostgresUnavailableException ex)
        {
            throw Unavailable.Because(ex.Message);
        }
    }
}
