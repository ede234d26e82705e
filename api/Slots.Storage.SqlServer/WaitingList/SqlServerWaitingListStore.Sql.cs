using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Reservations;
using Slots.Sms;
using Slots.WaitingList;

namespace Slots.Storage.SqlServer;

/// <summary>The waiting list's statements and the claim's proc call on SQL Server, parse-checked by tests/Slots.SqlServer.Tests.</summary>
public sealed partial class SqlServerWaitingListStore
{
    /// <summary>The statements this store sends, public so the tests parse each one.</summary>
    public static class Sql
    {
        /// <summary>
        /// A join: the person's entry at the place if there is one (sought under a key-range update
        /// lock, so two joins of one person queue and the second finds the first's), else a refusal
        /// when the person holds a booking or a seat of those days can be booked now (a free hot seat,
        /// or a disk day's open slot with room), else a new entry. Answers status, token, position.
        /// </summary>
        public const string Join = """
            SET XACT_ABORT ON;
            BEGIN TRANSACTION;
            DECLARE @mine varchar(64) = NULL, @status int = 1, @position int = 0, @horizon date = NULL;
            SELECT TOP (1) @mine = token FROM dbo.waitlist WITH (UPDLOCK, HOLDLOCK)
            WHERE place_id = @place_id AND person_hash = @person_hash AND state IN (1, 2);
            IF @mine IS NOT NULL
                SET @status = 2;
            ELSE IF EXISTS (SELECT 1 FROM dbo.active_persons WITH (SNAPSHOT) WHERE person_hash = @person_hash AND ends_at > @now)
                SET @status = 4;
            ELSE
            BEGIN
                SELECT @horizon = hot_until FROM dbo.places WHERE id = @place_id;
                IF @horizon IS NULL
                    THROW 50080, N'waitlist join: unknown place', 1;
                IF EXISTS (SELECT 1 FROM dbo.hot_seats WITH (SNAPSHOT)
                           WHERE place_id = @place_id AND day >= @from AND day <= @to AND code IS NULL AND hold = 0 AND starts_at > @now)
                   OR EXISTS (SELECT 1 FROM dbo.slots s
                              WHERE s.place_id = @place_id AND s.day >= IIF(@from < @horizon, @horizon, @from) AND s.day <= @to
                                AND s.closed_by IS NULL
                                AND s.capacity > (SELECT COUNT(*) FROM dbo.reservations r
                                                  WHERE r.place_id = s.place_id AND r.day = s.day AND r.start_minute = s.start_minute
                                                    AND r.cancelled_at IS NULL))
                    SET @status = 3;
                ELSE
                BEGIN
                    INSERT dbo.waitlist (place_id, from_day, to_day, person_hash, phone, name, language, token, joined_at, state)
                    VALUES (@place_id, @from, @to, @person_hash, @phone, @name, @language, @token, @now, 1);
                    SET @mine = @token;
                    -- From now on a seat freed on these days is kept for the line (dbo.cancel, dbo.reschedule).
                    UPDATE dbo.waitlist_wanted WITH (SNAPSHOT)
                    SET from_day = IIF(@from < from_day, @from, from_day), to_day = IIF(@to > to_day, @to, to_day)
                    WHERE place_id = @place_id;
                    IF @@ROWCOUNT = 0
                        INSERT dbo.waitlist_wanted WITH (SNAPSHOT) (place_id, from_day, to_day) VALUES (@place_id, @from, @to);
                END
            END
            IF @mine IS NOT NULL
                SELECT @position = COUNT(*) FROM dbo.waitlist w JOIN dbo.waitlist me ON me.token = @mine
                WHERE w.place_id = me.place_id AND w.state IN (1, 2) AND w.id <= me.id;
            COMMIT TRANSACTION;
            SELECT @status, @mine, @position;
            """;

        /// <summary>The entry, its offers newest first (with the slot's minutes), its place in line (0 when off the line).</summary>
        public const string Find = """
            SELECT id, place_id, from_day, to_day, state, name FROM dbo.waitlist WHERE token = @token;
            SELECT o.id, o.place_id, o.day, o.start_minute, o.offered_at, o.expires_at, o.state, o.code, s.minutes
            FROM dbo.waitlist me
            JOIN dbo.waitlist_offers o ON o.entry_id = me.id
            JOIN dbo.slots s ON s.place_id = o.place_id AND s.day = o.day AND s.start_minute = o.start_minute
            WHERE me.token = @token
            ORDER BY o.id DESC;
            SELECT COUNT(*) FROM dbo.waitlist w JOIN dbo.waitlist me ON me.token = @token
            WHERE me.state IN (1, 2) AND w.place_id = me.place_id AND w.state IN (1, 2) AND w.id <= me.id;
            """;

        /// <summary>
        /// Takes the entry off the list (the entry first, as a claim locks it); a seat held for it
        /// goes from its offer back to the line (offer_id NULL, hold kept). Answers whether it was on the list.
        /// </summary>
        public const string Leave = """
            SET XACT_ABORT ON;
            BEGIN TRANSACTION;
            DECLARE @entry bigint = NULL;
            DECLARE @freed TABLE (id bigint PRIMARY KEY, place_id int NOT NULL, day date NOT NULL, start_minute int NOT NULL, seat_no int NOT NULL);
            UPDATE dbo.waitlist SET state = 4, decided_at = @now, @entry = id
            WHERE token = @token AND state IN (1, 2);
            IF @entry IS NOT NULL
            BEGIN
                UPDATE dbo.waitlist_offers SET state = 4, decided_at = @now
                OUTPUT INSERTED.id, INSERTED.place_id, INSERTED.day, INSERTED.start_minute, INSERTED.seat_no INTO @freed
                WHERE entry_id = @entry AND state = 1;
                UPDATE s SET offer_id = NULL
                FROM dbo.hot_seats s WITH (SNAPSHOT)
                JOIN @freed f ON f.place_id = s.place_id AND f.day = s.day AND f.start_minute = s.start_minute AND f.seat_no = s.seat_no
                WHERE s.offer_id = f.id;
            END
            COMMIT TRANSACTION;
            SELECT CAST(IIF(@entry IS NULL, 0, 1) AS bit);
            """;

        /// <summary>
        /// The offer job's first step, one transaction: holds that ran out expire (their entries
        /// first, as a claim locks them: a claim in flight is waited for, and an entry it booked is
        /// no longer offered), people who booked somewhere else leave the list, and the seats held
        /// for either go back to the line (offer_id NULL, hold kept). Answers the offers expired and the entries left.
        /// </summary>
        public const string Settle = """
            SET XACT_ABORT ON;
            BEGIN TRANSACTION;
            DECLARE @decided TABLE (entry_id bigint PRIMARY KEY);
            DECLARE @freed TABLE (id bigint PRIMARY KEY, place_id int NOT NULL, day date NOT NULL, start_minute int NOT NULL, seat_no int NOT NULL);
            DECLARE @expired int = 0, @left int = 0;
            UPDATE w SET state = 5, decided_at = @now
            OUTPUT INSERTED.id INTO @decided (entry_id)
            FROM dbo.waitlist w
            WHERE w.state = 2
              AND EXISTS (SELECT 1 FROM dbo.waitlist_offers o WHERE o.entry_id = w.id AND o.state = 1 AND o.expires_at <= @now);
            UPDATE o SET state = 3, decided_at = @now
            OUTPUT INSERTED.id, INSERTED.place_id, INSERTED.day, INSERTED.start_minute, INSERTED.seat_no INTO @freed
            FROM dbo.waitlist_offers o
            JOIN @decided d ON d.entry_id = o.entry_id
            WHERE o.state = 1;
            SET @expired = @@ROWCOUNT;
            DELETE @decided;
            UPDATE w SET state = 4, decided_at = @now
            OUTPUT INSERTED.id INTO @decided (entry_id)
            FROM dbo.waitlist w
            WHERE w.state IN (1, 2)
              AND EXISTS (SELECT 1 FROM dbo.active_persons a WITH (SNAPSHOT) WHERE a.person_hash = w.person_hash AND a.ends_at > @now);
            SET @left = @@ROWCOUNT;
            UPDATE o SET state = 4, decided_at = @now
            OUTPUT INSERTED.id, INSERTED.place_id, INSERTED.day, INSERTED.start_minute, INSERTED.seat_no INTO @freed
            FROM dbo.waitlist_offers o
            JOIN @decided d ON d.entry_id = o.entry_id
            WHERE o.state = 1;
            UPDATE s SET offer_id = NULL
            FROM dbo.hot_seats s WITH (SNAPSHOT)
            JOIN @freed f ON f.place_id = s.place_id AND f.day = s.day AND f.start_minute = s.start_minute AND f.seat_no = s.seat_no
            WHERE s.offer_id = f.id;
            COMMIT TRANSACTION;
            SELECT @expired, @left;
            """;

        /// <summary>The places with a line, or whose line moved in the last hour (a kept seat may want giving back).</summary>
        public const string Places = """
            SELECT DISTINCT place_id FROM dbo.waitlist WHERE state IN (1, 2) OR decided_at > @since;
            """;

        /// <summary>
        /// The days the place's line wants, as the native cancel and reschedule read them: the range
        /// of its waiting entries' days, or no row when none waits. A join widens it at once; this
        /// narrows it once a run, so a seat kept for days nobody wants any more is at most one run
        /// away from going back to everyone (a join between this read and its write is widened
        /// again at the next run).
        /// </summary>
        public const string Wanted = """
            DECLARE @from date = NULL, @to date = NULL;
            SELECT @from = MIN(from_day), @to = MAX(to_day) FROM dbo.waitlist WHERE place_id = @place_id AND state = 1;
            IF @from IS NULL
                DELETE dbo.waitlist_wanted WITH (SNAPSHOT) WHERE place_id = @place_id;
            ELSE
            BEGIN
                UPDATE dbo.waitlist_wanted WITH (SNAPSHOT) SET from_day = @from, to_day = @to WHERE place_id = @place_id;
                IF @@ROWCOUNT = 0
                    INSERT dbo.waitlist_wanted WITH (SNAPSHOT) (place_id, from_day, to_day) VALUES (@place_id, @from, @to);
            END
            """;

        /// <summary>A place's entries waiting for an offer, first in line first.</summary>
        public const string Line = """
            SELECT id, from_day, to_day, phone, language, token FROM dbo.waitlist
            WHERE place_id = @place_id AND state = 1
            ORDER BY id;
            """;

        /// <summary>A place's seats that could be offered: free or kept for the line, not starting before the last call.</summary>
        public const string Seats = """
            SELECT day, start_minute, seat_no, starts_at, hold FROM dbo.hot_seats WITH (SNAPSHOT)
            WHERE place_id = @place_id AND code IS NULL AND offer_id IS NULL AND starts_at > @last_call
            ORDER BY day, start_minute, seat_no;
            """;

        /// <summary>
        /// One offer, one transaction: the entry moves from waiting to offered (first, as a claim
        /// locks it), the offer is written, the seat held for it (hold 1, offer_id) if still free or
        /// kept, and the SMS queued under the offer's message code; or nothing, when the entry or the seat went meanwhile (a booking that took
        /// the seat first, or one that takes it while this runs and meets 41302, is the winner).
        /// Answers the offer's id, or NULL.
        /// </summary>
        public const string Offer = """
            SET XACT_ABORT ON;
            BEGIN TRANSACTION;
            DECLARE @id bigint = NULL, @message varchar(16);
            UPDATE dbo.waitlist SET state = 2 WHERE id = @entry_id AND state = 1;
            IF @@ROWCOUNT = 1
            BEGIN
                INSERT dbo.waitlist_offers (entry_id, place_id, day, start_minute, seat_no, offered_at, expires_at, state)
                VALUES (@entry_id, @place_id, @day, @start_minute, @seat_no, @now, @expires_at, 1);
                SET @id = CONVERT(bigint, SCOPE_IDENTITY());
                SET @message = '~h' + CONVERT(varchar(20), @id);
                UPDATE dbo.hot_seats WITH (SNAPSHOT) SET hold = 1, offer_id = @id
                WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute AND seat_no = @seat_no
                  AND code IS NULL AND offer_id IS NULL;
                IF @@ROWCOUNT = 1
                    INSERT dbo.outbox WITH (SNAPSHOT) (kind, code, phone, language, place_id, day, start_minute, created_at, sent_at, note)
                    VALUES (6, @message, @phone, @language, @place_id, @day, @start_minute, @now, NULL, @note);
                ELSE
                    SET @id = NULL;
            END
            IF @id IS NULL
                ROLLBACK TRANSACTION;
            ELSE
                COMMIT TRANSACTION;
            SELECT @id;
            """;

        /// <summary>Those on the lists after the step, waiting or offered (the job's gauge).</summary>
        public const string Waiting = "SELECT COUNT_BIG(*) FROM dbo.waitlist WHERE state IN (1, 2);";

        /// <summary>A seat kept for a line that no longer wants it is anybody's again.</summary>
        public const string Release = """
            UPDATE dbo.hot_seats WITH (SNAPSHOT) SET hold = 0
            WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute AND seat_no = @seat_no AND hold = 1 AND offer_id IS NULL;
            """;
    }

    /// <summary>The call of dbo.waitlist_claim, public so the tests match it to sql/082.</summary>
    public static class Commands
    {
        /// <summary>dbo.waitlist_claim: outputs @status (1-4), and on 1 @booked_code, the slot and @minutes.</summary>
        public static SqlCommand Claim(string token, string newCode, DateTimeOffset now)
        {
            var proc = new SqlCommand("dbo.waitlist_claim") { CommandType = CommandType.StoredProcedure };
            proc.Parameters.Add("@token", SqlDbType.VarChar, TokenSize).Value = token;
            proc.Parameters.Add("@code", SqlDbType.VarChar, SqlServerCommands.CodeSize).Value = newCode;
            proc.Parameters.Add("@now", SqlDbType.BigInt).Value = now.ToUnixTimeSeconds();
            Output(proc, "@status", SqlDbType.Int);
            Output(proc, "@booked_code", SqlDbType.VarChar, SqlServerCommands.CodeSize);
            Output(proc, "@place_id", SqlDbType.Int);
            Output(proc, "@day", SqlDbType.Date);
            Output(proc, "@start_minute", SqlDbType.Int);
            Output(proc, "@minutes", SqlDbType.Int);
            return proc;
        }

        private static void Output(SqlCommand proc, string name, SqlDbType type, int size = 0) =>
            proc.Parameters.Add(name, type, size).Direction = ParameterDirection.Output;
    }
}
