using Microsoft.EntityFrameworkCore;
using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Storage.Ef;
using Slots.Storage.Ef.Reminders;
using Slots.Storage.Ef.Staff;
using Slots.Storage.Ef.WaitingList;
using Slots.Storage.SqlServer.Ef;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// What the shared EF Core stores' queries become on SQL Server's provider, read by SQL Server 2016's
/// parser with no server: T-SQL it accepts, over the tables sql/ creates.
/// </summary>
public sealed class EfQuerySqlTests
{
    private static SlotsDbContext Context()
    {
        var options = new DbContextOptionsBuilder<SlotsDbContext>();
        SqlServerModel.Use(options, "Server=127.0.0.1,1;Database=slots;User Id=sa;Password=unused");
        return new SlotsDbContext(options.Options);
    }

    /// <summary>The query's text parsed; returns the tables it names.</summary>
    private static List<string> Tables(IQueryable query) =>
        [.. SqlScripts.All<NamedTableReference>(Tree(query)).Select(t => SqlScripts.NameOf(t.SchemaObject)).Distinct()];

    private static TSqlFragment Tree(IQueryable query)
    {
        using var reader = new StringReader(query.ToQueryString());
        var tree = new TSql130Parser(initialQuotedIdentifiers: true).Parse(reader, out var errors);
        Assert.Empty(errors.Select(e => $"{e.Line}:{e.Column} {e.Message}"));
        return tree;
    }

    /// <summary>The text of the query's outermost SELECT's WHERE and ORDER BY, upper-cased as the parser writes it.</summary>
    private static (string Where, string? OrderBy) Clauses(IQueryable query)
    {
        var select = SqlScripts.All<QuerySpecification>(Tree(query)).OrderBy(q => q.StartOffset).First();
        return (SqlScripts.Text(select.WhereClause), select.OrderByClause is null ? null : SqlScripts.Text(select.OrderByClause));
    }

    public static TheoryData<string> WaitingListQueries() => [.. WaitingList.Keys];

    /// <summary>The waiting list's reads in the shared store, each with the tables it may read on SQL Server.</summary>
    private static readonly Dictionary<string, (Func<SlotsDbContext, IQueryable> Query, string[] Tables)> WaitingList = new()
    {
        ["line"] = (db => EfWaitingListStore.Line(db, 7), ["waitlist"]),
        ["open seats"] = (db => EfWaitingListStore.OpenSeats(db, 7, 4_000_000_000), ["hot_seats"]),
        ["offers"] = (db => EfWaitingListStore.Offers(db, 41), ["slots", "waitlist_offers"]),
        ["ahead"] = (db => EfWaitingListStore.Ahead(db, "0123456789abcdef"), ["waitlist"]),
        ["on the list"] = (db => EfWaitingListStore.OnList(db, "0123456789abcdef"), ["waitlist"]),
        ["booked elsewhere"] = (db => EfWaitingListStore.BookedElsewhere(db, 4_000_000_000), ["active_persons", "waitlist"]),
        ["expiring"] = (db => EfWaitingListStore.ExpiringEntries(db, 4_000_000_000), ["waitlist", "waitlist_offers"]),
        ["open offers of"] = (db => EfWaitingListStore.OpenOffersOf(db, 5, 4_000_000_000), ["waitlist", "waitlist_offers"]),
    };

    [Theory]
    [MemberData(nameof(WaitingListQueries))]
    public void The_waiting_lists_reads_are_SQL_Server_queries_over_the_tables_sql_creates(string name)
    {
        using var db = Context();
        var (query, expected) = WaitingList[name];

        var tables = Tables(query(db));

        Assert.Equal(expected, tables.Order(StringComparer.Ordinal));
        Assert.All(tables, t => Assert.Contains(t, SqlScripts.HotTables.Concat(SqlScripts.DiskTables)));
    }

    [Fact]
    public void The_window_jobs_read_the_places_in_one_SQL_Server_query_of_their_table()
    {
        using var db = Context();

        Assert.Equal(["places"], Tables(Slots.Storage.SqlServer.SqlServerWindowSync.Places(db)));
    }

    [Fact]
    public void The_offer_step_reads_only_seats_with_no_booking_and_no_offer_in_seat_order()
    {
        using var db = Context();

        var (where, orderBy) = Clauses(EfWaitingListStore.OpenSeats(db, 7, 4_000_000_000));

        Assert.Contains("[H].[CODE] IS NULL AND [H].[OFFER_ID] IS NULL AND [H].[STARTS_AT] > @LASTCALL", where, StringComparison.Ordinal);
        // The hot seats' key order (issue 41: a seat is one service's), so the read follows the range index.
        Assert.Equal("ORDER BY [H].[DAY], [H].[START_MINUTE], [H].[SERVICE_ID], [H].[SEAT_NO]", orderBy);
    }

    [Fact]
    public void A_token_is_sent_as_the_varchar_its_column_is_so_the_unique_index_is_sought()
    {
        using var db = Context();

        var sql = EfWaitingListStore.OnList(db, "0123456789abcdef").ToQueryString();

        Assert.Contains("DECLARE @token varchar(64) = '0123456789abcdef';", sql, StringComparison.Ordinal);
    }

    [Fact]
    public void The_reminders_due_read_the_hot_seats_their_bookings_and_the_reminders_in_one_SQL_Server_query()
    {
        using var db = Context();

        var tables = Tables(EfReminderStore.Due(db, 7, new DateOnly(2099, 1, 2), 4_000_000_000).Take(500));

        Assert.Equal(["hot_reservations", "hot_seats", "reminders"], tables.Order(StringComparer.Ordinal));
        Assert.All(tables, t => Assert.Contains(t, SqlScripts.HotTables.Concat(SqlScripts.DiskTables)));
    }

    public static TheoryData<string> RosterQueries() => [.. Roster.Keys];

    /// <summary>A hot day's roster page in five reads, and the door's read of a booking, each with the tables it may read on SQL Server.</summary>
    private static readonly Dictionary<string, (Func<SlotsDbContext, IQueryable> Query, string[] Tables)> Roster = new()
    {
        ["the hot window"] = (db => EfStaffStore.Window(db, 7), ["hot_seats", "places"]),
        ["the booked seats"] = (db => EfStaffStore.Seated(db, 7, new DateOnly(2099, 1, 2)), ["hot_seats"]),
        ["the day's marks"] = (db => EfStaffStore.DayMarks(db, 7, new DateOnly(2099, 1, 2)), ["attendance"]),
        ["the cancels"] = (db => EfStaffStore.Cancels(db, 7, new DateOnly(2099, 1, 2)), ["attendance", "changes", "reservations"]),
        ["the page's people"] = (db => EfStaffStore.People(db, ["ABCD2345", "EFGH6789"]), ["hot_reservations"]),
        ["the door's booking"] = (db => EfStaffStore.HotAtDoorOf(db, "ABCD2345"), ["attendance", "hot_reservations"]),
    };

    [Theory]
    [MemberData(nameof(RosterQueries))]
    public void The_rosters_reads_are_SQL_Server_queries_over_the_tables_sql_creates(string name)
    {
        using var db = Context();
        var (query, expected) = Roster[name];

        var tables = Tables(query(db));

        Assert.Equal(expected, tables.Order(StringComparer.Ordinal));
        Assert.All(tables, t => Assert.Contains(t, SqlScripts.HotTables.Concat(SqlScripts.DiskTables)));
    }

    [Fact]
    public void The_rosters_booked_seats_are_one_range_of_the_seats_key_with_no_hot_row_read()
    {
        using var db = Context();

        var (where, _) = Clauses(EfStaffStore.Seated(db, 7, new DateOnly(2099, 1, 2)));

        Assert.Matches(@"^WHERE \[H\]\.\[PLACE_ID\] = @\w+ AND \[H\]\.\[DAY\] = @\w+ AND \[H\]\.\[CODE\] IS NOT NULL$", where);
    }
}
