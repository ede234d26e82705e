using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Reservations;
using Slots.Sms;
using Slots.WaitingList;

namespace Slots.Storage.SqlServer;

/// <summary>The offer step on SQL Server: settle expired and withdrawn holds, then write each place's <see cref="OfferPlan"/>.</summary>
public sealed partial class SqlServerWaitingListStore
{
    public async Task<OfferStep> StepAsync(DateTimeOffset now, WaitingListOptions options, CancellationToken ct)
    {
        var at = now.ToUnixTimeSeconds();
        var (expired, left) = await retry.ExecuteAsync(async attempt =>
        {
            await using var connection = await OpenAsync(attempt);
            await using var settle = new SqlCommand(Sql.Settle, connection);
            settle.Parameters.Add("@now", SqlDbType.BigInt).Value = at;
            await using var row = await settle.ExecuteReaderAsync(attempt);
            await row.ReadAsync(attempt);
            return (row.GetInt32(0), row.GetInt32(1));
        }, RetryOn, exhausted: null, ct);

        var offered = 0;
        var released = 0;
        var lastCall = at + (long)options.LastCall.TotalSeconds;
        foreach (var place in await PlacesAsync(at - 3600, ct))
        {
            await MarkWantedDaysAsync(place, ct);
            var (line, seats) = await LineAndSeatsAsync(place, lastCall, ct);
            var plan = OfferPlan.For(line, seats, now, options);
            offered += await plan.WriteOffersAsync(options.OffersPerRun - offered, o => OfferAsync(place, o, at, ct));
            foreach (var seat in plan.Releases)
            {
                released += await ReleaseAsync(place, seat, ct);
            }
        }
        return new OfferStep(offered, expired, left, released, await WaitingAsync(ct));
    }

    private async Task MarkWantedDaysAsync(int place, CancellationToken ct) =>
        await retry.ExecuteAsync(async attempt =>
        {
            await using var connection = await OpenAsync(attempt);
            await using var mark = new SqlCommand(Sql.Wanted, connection);
            mark.Parameters.Add("@place_id", SqlDbType.Int).Value = place;
            await mark.ExecuteNonQueryAsync(attempt);
            return true;
        }, RetryOn, exhausted: null, ct);

    private async Task<long> WaitingAsync(CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var count = new SqlCommand(Sql.Waiting, connection);
        return (long)(await count.ExecuteScalarAsync(ct))!;
    }

    private async Task<List<int>> PlacesAsync(long since, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var query = new SqlCommand(Sql.Places, connection);
        query.Parameters.Add("@since", SqlDbType.BigInt).Value = since;
        var places = new List<int>();
        await using var row = await query.ExecuteReaderAsync(ct);
        while (await row.ReadAsync(ct))
        {
            places.Add(row.GetInt32(0));
        }
        return places;
    }

    private async Task<(List<Waiter> Line, List<OpenSeat> Seats)> LineAndSeatsAsync(int place, long lastCall, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        var line = new List<Waiter>();
        await using (var query = new SqlCommand(Sql.Line, connection))
        {
            query.Parameters.Add("@place_id", SqlDbType.Int).Value = place;
            await using var row = await query.ExecuteReaderAsync(ct);
            while (await row.ReadAsync(ct))
            {
                line.Add(new Waiter(row.GetInt64(0), Day(row, 1), Day(row, 2), row.GetString(3), row.GetString(4), row.GetString(5)));
            }
        }
        var seats = new List<OpenSeat>();
        await using (var query = new SqlCommand(Sql.Seats, connection))
        {
            query.Parameters.Add("@place_id", SqlDbType.Int).Value = place;
            query.Parameters.Add("@last_call", SqlDbType.BigInt).Value = lastCall;
            await using var row = await query.ExecuteReaderAsync(ct);
            while (await row.ReadAsync(ct))
            {
                seats.Add(new OpenSeat(Day(row, 0), row.GetInt32(1), row.GetInt32(2), row.GetInt64(3), row.GetInt16(4) == 1));
            }
        }
        return (line, seats);
    }

    /// <summary>One offer: the seat held, the entry offered, the SMS queued, or nothing when a racer got there first.</summary>
    private async Task<bool> OfferAsync(int place, PlannedOffer planned, long at, CancellationToken ct) =>
        await retry.ExecuteAsync(async attempt =>
        {
            var (entry, seat, hold) = (planned.Waiter, planned.Seat, planned.Hold);
            await using var connection = await OpenAsync(attempt);
            await using var offer = new SqlCommand(Sql.Offer, connection);
            offer.Parameters.Add("@entry_id", SqlDbType.BigInt).Value = entry.Id;
            AddSeat(offer, place, seat);
            offer.Parameters.Add("@now", SqlDbType.BigInt).Value = at;
            offer.Parameters.Add("@expires_at", SqlDbType.BigInt).Value = at + (long)hold.TotalSeconds;
            offer.Parameters.Add("@phone", SqlDbType.VarChar, SqlServerCommands.PhoneSize).Value = entry.Phone;
            offer.Parameters.Add("@language", SqlDbType.VarChar, SqlServerCommands.LanguageSize).Value = entry.Language;
            offer.Parameters.Add("@note", SqlDbType.NVarChar, NoteSize).Value = SeatOffered.Note((int)Math.Round(hold.TotalMinutes), entry.Token);
            return await offer.ExecuteScalarAsync(attempt) is long;
        }, RetryOn, exhausted: null, ct);

    private async Task<int> ReleaseAsync(int place, OpenSeat seat, CancellationToken ct) =>
        await retry.ExecuteAsync(async attempt =>
        {
            await using var connection = await OpenAsync(attempt);
            await using var release = new SqlCommand(Sql.Release, connection);
            AddSeat(release, place, seat);
            return await release.ExecuteNonQueryAsync(attempt);
        }, RetryOn, exhausted: null, ct);

    private static void AddSeat(SqlCommand command, int place, OpenSeat seat)
    {
        command.Parameters.Add("@place_id", SqlDbType.Int).Value = place;
        command.Parameters.Add("@day", SqlDbType.Date).Value = seat.Day.ToDateTime(TimeOnly.MinValue);
        command.Parameters.Add("@start_minute", SqlDbType.Int).Value = seat.StartMinute;
        command.Parameters.Add("@seat_no", SqlDbType.Int).Value = seat.SeatNo;
    }
}
