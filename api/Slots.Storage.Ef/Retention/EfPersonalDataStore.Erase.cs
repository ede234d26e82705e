using Microsoft.EntityFrameworkCore;
using Slots.Retention;
using Slots.Storage.Ef.WaitingList;
using Slots.WaitingList;

namespace Slots.Storage.Ef.Retention;

public partial class EfPersonalDataStore
{
    private const int Waiting = (int)EntryState.Waiting, Offered = (int)EntryState.Offered;

    public async Task<ErasedRows> EraseAsync(string personHash, CancellationToken ct)
    {
        var bookings = await BookingsAsync(personHash, ct);
        var entries = await EntriesAsync(personHash, ct);
        var outbox = 0;
        foreach (var code in await SmsCodesAsync(bookings, entries, ct))
        {
            // A queued SMS keeps its phone until it is sent (the cancel the person was promised);
            // ErasePersonalDataJob blanks it then, as its booking holds no one any more.
            outbox += await db.Outbox
                .Where(o => o.Code == code && o.SentAt != null && (o.Phone != "" || o.Note != null))
                .ExecuteUpdateAsync(s => s.SetProperty(o => o.Phone, "").SetProperty(o => o.Note, (string?)null), ct);
        }
        var persons = await db.ActivePersons.Where(a => a.PersonHash == personHash).ExecuteDeleteAsync(ct);
        // An invitation code the person spent stays spent and is bound to no one: dead from now on.
        persons += await db.InvitationCodes.Where(i => i.PersonHash == personHash)
            .ExecuteUpdateAsync(s => s.SetProperty(i => i.PersonHash, (string?)null), ct);
        // Entries still on a list were left before (PersonalDataRequests); one that is not yet stays
        // whole, so the unique person index of live entries never meets a blank hash.
        var waitingList = await db.Database.ExecuteSqlAsync($"""
            UPDATE waitlist SET phone = '', name = '', person_hash = ''
            WHERE person_hash = {personHash} AND state NOT IN ({Waiting}, {Offered})
            """, ct);
        // The rows that find the person by code go last: until they are blank, a retry finds the person.
        var reservations = await db.Changes.Where(c => c.PersonHash == personHash)
            .ExecuteUpdateAsync(s => s.SetProperty(c => c.Phone, "").SetProperty(c => c.Name, "").SetProperty(c => c.PersonHash, ""), ct);
        reservations += await db.HotReservations.Where(r => r.PersonHash == personHash)
            .ExecuteUpdateAsync(s => s.SetProperty(r => r.Phone, "").SetProperty(r => r.Name, "").SetProperty(r => r.PersonHash, ""), ct);
        reservations += await db.Reservations.Where(r => r.PersonHash == personHash)
            .ExecuteUpdateAsync(s => s.SetProperty(r => r.Phone, "").SetProperty(r => r.Name, "").SetProperty(r => r.PersonHash, ""), ct);
        return new ErasedRows(reservations, outbox, waitingList, persons, 0);
    }
}
