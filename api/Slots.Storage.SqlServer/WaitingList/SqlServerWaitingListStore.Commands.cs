using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Sms;
using Slots.WaitingList;

namespace Slots.Storage.SqlServer;

/// <summary>The waiting list's proc calls on SQL Server, public so the tests match each to its proc in sql/.</summary>
public sealed partial class SqlServerWaitingListStore
{
    // Column sizes, as declared in sql/080 and sql/081.
    private const int TokenSize = 64, NoteSize = 100;

    public static class Commands
    {
        /// <summary>
        /// dbo.waitlist_claim: outputs @status (1-5), and on 1 @booked_code, the slot and @minutes; a pair's
        /// second dose (its code and range) is seated in the claim's transaction.
        /// </summary>
        public static SqlCommand Claim(ClaimCommand command)
        {
            var proc = Proc("dbo.waitlist_claim");
            proc.Parameters.Add("@token", SqlDbType.VarChar, TokenSize).Value = command.Token;
            proc.Parameters.Add("@code", SqlDbType.VarChar, SqlServerCommands.CodeSize).Value = command.NewCode;
            proc.Parameters.Add("@now", SqlDbType.BigInt).Value = command.Now.ToUnixTimeSeconds();
            proc.Parameters.Add("@offered_day", SqlDbType.Date).Value = (object?)command.Offered?.Day.ToDateTime(TimeOnly.MinValue) ?? DBNull.Value;
            proc.Parameters.Add("@offered_minute", SqlDbType.Int).Value = (object?)command.Offered?.StartMinute ?? DBNull.Value;
            proc.Parameters.Add("@second_code", SqlDbType.VarChar, SqlServerCommands.CodeSize).Value = (object?)command.SecondCode ?? DBNull.Value;
            proc.Parameters.Add("@day2_from", SqlDbType.Date).Value = (object?)command.Second?.From.ToDateTime(TimeOnly.MinValue) ?? DBNull.Value;
            proc.Parameters.Add("@day2_to", SqlDbType.Date).Value = (object?)command.Second?.To.ToDateTime(TimeOnly.MinValue) ?? DBNull.Value;
            proc.Parameters.Add("@minute2", SqlDbType.Int).Value = (object?)command.Second?.StartMinute ?? DBNull.Value;
            Output(proc, "@status", SqlDbType.Int);
            Output(proc, "@booked_code", SqlDbType.VarChar, SqlServerCommands.CodeSize);
            Output(proc, "@place_id", SqlDbType.Int);
            Output(proc, "@day", SqlDbType.Date);
            Output(proc, "@start_minute", SqlDbType.Int);
            Output(proc, "@minutes", SqlDbType.Int);
            return proc;
        }

        /// <summary>dbo.waitlist_want: the join's days added to those its place's line wants.</summary>
        public static SqlCommand Want(int place, DateOnly from, DateOnly to)
        {
            var proc = Proc("dbo.waitlist_want");
            proc.Parameters.Add("@place_id", SqlDbType.Int).Value = place;
            proc.Parameters.Add("@from", SqlDbType.Date).Value = from.ToDateTime(TimeOnly.MinValue);
            proc.Parameters.Add("@to", SqlDbType.Date).Value = to.ToDateTime(TimeOnly.MinValue);
            return proc;
        }

        /// <summary>dbo.waitlist_mark_wanted: the place's wanted days set to its waiting entries' range, or dropped.</summary>
        public static SqlCommand MarkWanted(int place)
        {
            var proc = Proc("dbo.waitlist_mark_wanted");
            proc.Parameters.Add("@place_id", SqlDbType.Int).Value = place;
            return proc;
        }

        /// <summary>dbo.waitlist_offer: outputs @offer_id, NULL when the entry or the seat went meanwhile.</summary>
        public static SqlCommand Offer(int place, PlannedOffer offer, long at)
        {
            var (entry, seat, hold) = (offer.Waiter, offer.Seat, offer.Hold);
            var proc = Proc("dbo.waitlist_offer");
            proc.Parameters.Add("@entry_id", SqlDbType.BigInt).Value = entry.Id;
            AddSeat(proc, place, seat);
            proc.Parameters.Add("@now", SqlDbType.BigInt).Value = at;
            proc.Parameters.Add("@expires_at", SqlDbType.BigInt).Value = at + (long)hold.TotalSeconds;
            proc.Parameters.Add("@phone", SqlDbType.VarChar, SqlServerCommands.PhoneSize).Value = entry.Phone;
            proc.Parameters.Add("@language", SqlDbType.VarChar, SqlServerCommands.LanguageSize).Value = entry.Language;
            proc.Parameters.Add("@note", SqlDbType.NVarChar, NoteSize).Value = SeatOffered.Note((int)Math.Round(hold.TotalMinutes), entry.Token);
            Output(proc, "@offer_id", SqlDbType.BigInt);
            return proc;
        }

        /// <summary>dbo.waitlist_keep_for_line: the seats of the offers decided at <paramref name="at"/> in <paramref name="state"/> back to the line.</summary>
        public static SqlCommand KeepForLine(short state, long at)
        {
            var proc = Proc("dbo.waitlist_keep_for_line");
            proc.Parameters.Add("@state", SqlDbType.SmallInt).Value = state;
            proc.Parameters.Add("@at", SqlDbType.BigInt).Value = at;
            return proc;
        }

        /// <summary>dbo.waitlist_release_seat: outputs @released, 1 when the seat was kept for the line and is anybody's now.</summary>
        public static SqlCommand ReleaseSeat(int place, OpenSeat seat)
        {
            var proc = Proc("dbo.waitlist_release_seat");
            AddSeat(proc, place, seat);
            Output(proc, "@released", SqlDbType.Int);
            return proc;
        }

        private static SqlCommand Proc(string name) => new(name) { CommandType = CommandType.StoredProcedure };

        private static void AddSeat(SqlCommand proc, int place, OpenSeat seat)
        {
            proc.Parameters.Add("@place_id", SqlDbType.Int).Value = place;
            proc.Parameters.Add("@day", SqlDbType.Date).Value = seat.Day.ToDateTime(TimeOnly.MinValue);
            proc.Parameters.Add("@start_minute", SqlDbType.Int).Value = seat.StartMinute;
            proc.Parameters.Add("@seat_no", SqlDbType.Int).Value = seat.SeatNo;
        }

        private static void Output(SqlCommand proc, string name, SqlDbType type, int size = 0) =>
            proc.Parameters.Add(name, type, size).Direction = ParameterDirection.Output;
    }
}
