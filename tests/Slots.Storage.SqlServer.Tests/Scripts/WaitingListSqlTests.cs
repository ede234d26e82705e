using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// The waiting list on SQL Server as its parser reads it: the entries' and offers' disk tables
/// (sql/080, sql/081), the claim (sql/082) beside the native dbo.reserve it books through, and the
/// procs beside the hot path's that <see cref="SqlServerWaitingListStore"/> calls from the shared EF
/// Core store where the waiting list meets the hot seats (sql/101-105).
/// </summary>
public sealed class WaitingListSqlTests
{
    private const string Claim = "waitlist_claim";

    /// <summary>The procs the store calls beside the claim, where the waiting list meets the hot seats.</summary>
    public static readonly string[] HotSeatProcs = ["waitlist_want", "waitlist_mark_wanted", "waitlist_offer", "waitlist_keep_for_line", "waitlist_release_seat"];

    public static TheoryData<string> ProcNames() => [.. HotSeatProcs];

    private static TSqlFragment Parse(string fileName, TSqlParser parser)
    {
        var (tree, errors) = SqlScripts.Parse(fileName, parser);
        Assert.Empty(errors.Select(e => $"{e.Line}:{e.Column} {e.Message}"));
        return tree;
    }

    private static TSqlFragment Proc(string name = Claim) => SqlScripts.Tree(SqlScripts.FileOf("proc", name));

    private static ExecutableProcedureReference Reserve(TSqlFragment tree) =>
        Assert.Single(SqlScripts.All<ExecutableProcedureReference>(tree), e => SqlScripts.NameOf(e.ProcedureReference.ProcedureReference.Name) == "reserve");

    private static CreateTableStatement Table(string name) =>
        Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", name))));

    private static string NameOf(TableReference target) => SqlScripts.NameOf(((NamedTableReference)target).SchemaObject);

    private static string Columns(IEnumerable<ColumnWithSortOrder> columns) =>
        string.Join(",", columns.Select(c => c.Column.MultiPartIdentifier.Identifiers[^1].Value));

    /// <summary>The updates of hot_seats, by their own text, in the order they run.</summary>
    private static List<UpdateSpecification> SeatUpdates(TSqlFragment tree) =>
        [.. SqlScripts.All<UpdateSpecification>(tree).Where(u => NameOf(u.Target) == "hot_seats").OrderBy(u => u.StartOffset)];

    [Fact]
    public void The_waiting_list_scripts_follow_the_reminders_in_their_own_block()
    {
        Assert.Equal(
            ["080_table_waitlist.sql", "081_table_waitlist_offers.sql", "082_proc_waitlist_claim.sql"],
            [SqlScripts.FileOf("table", "waitlist"), SqlScripts.FileOf("table", "waitlist_offers"), SqlScripts.FileOf("proc", Claim)]);
    }

    [Fact]
    public void An_entry_is_a_disk_row_with_a_unique_token_and_one_entry_per_person_and_place_on_the_line()
    {
        var table = Table("waitlist");

        Assert.Empty(table.Options.OfType<MemoryOptimizedTableOption>());
        Assert.NotNull(Assert.Single(table.Definition.ColumnDefinitions, c => c.ColumnIdentifier.Value == "id").IdentityOptions);
        Assert.Equal("VARCHAR(64)", SqlScripts.Text(Assert.Single(table.Definition.ColumnDefinitions, c => c.ColumnIdentifier.Value == "token").DataType));
        var keys = table.Definition.TableConstraints.OfType<UniqueConstraintDefinition>().ToList();
        Assert.Equal("id", Columns(Assert.Single(keys, k => k.IsPrimaryKey).Columns));
        Assert.Equal("token", Columns(Assert.Single(keys, k => !k.IsPrimaryKey).Columns));
        var person = Assert.Single(table.Definition.Indexes, i => i.Unique);
        Assert.Equal("place_id,person_hash", Columns(person.Columns));
        Assert.Equal("STATE IN (1, 2)", SqlScripts.Text(person.FilterPredicate));
        var line = Assert.Single(table.Definition.Indexes, i => !i.Unique);
        Assert.Equal("place_id,id", Columns(line.Columns));
        Assert.Equal("STATE IN (1, 2)", SqlScripts.Text(line.FilterPredicate));
    }

    [Fact]
    public void An_offer_is_a_disk_row_with_an_index_of_the_open_ones_and_one_by_entry()
    {
        var table = Table("waitlist_offers");

        Assert.Empty(table.Options.OfType<MemoryOptimizedTableOption>());
        Assert.NotNull(Assert.Single(table.Definition.ColumnDefinitions, c => c.ColumnIdentifier.Value == "id").IdentityOptions);
        Assert.Equal(
            ["id", "entry_id", "place_id", "day", "start_minute", "seat_no", "offered_at", "expires_at", "state", "decided_at", "code", "service_id"],
            table.Definition.ColumnDefinitions.Select(c => c.ColumnIdentifier.Value));
        var open = Assert.Single(table.Definition.Indexes, i => i.FilterPredicate is not null);
        Assert.Equal("expires_at", Columns(open.Columns));
        Assert.Equal("STATE = 1", SqlScripts.Text(open.FilterPredicate));
        Assert.Contains(table.Definition.Indexes, i => Columns(i.Columns) == "entry_id");
    }

    [Fact]
    public void The_claim_is_interpreted_one_transaction_that_aborts_whole_and_touches_hot_tables_with_snapshot()
    {
        var tree = Proc();
        var proc = Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(tree));

        Assert.DoesNotContain(ProcedureOptionKind.NativeCompilation, proc.Options.Select(o => o.OptionKind));
        Assert.Contains(SqlScripts.All<PredicateSetStatement>(tree), s => s.Options.HasFlag(SetOptions.XactAbort) && s.IsOn);
        Assert.Single(SqlScripts.All<BeginTransactionStatement>(tree));
        var hot = SqlScripts.All<NamedTableReference>(tree).Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject))).ToList();
        Assert.NotEmpty(hot);
        Assert.All(hot, t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
        Assert.DoesNotContain(SqlScripts.All<SetTransactionIsolationLevelStatement>(tree), s => s.Level == IsolationLevel.Snapshot);
    }

    [Fact]
    public void The_claim_locks_the_entry_first_with_an_update_lock_held_to_the_end()
    {
        var tree = Proc();

        var first = SqlScripts.All<NamedTableReference>(tree).OrderBy(t => t.StartOffset)
            .First(t => SqlScripts.NameOf(t.SchemaObject) is "waitlist" or "waitlist_offers");
        Assert.Equal("waitlist", SqlScripts.NameOf(first.SchemaObject));
        Assert.Equal([TableHintKind.UpdLock, TableHintKind.HoldLock], first.TableHints.Select(h => h.HintKind));
    }

    [Fact]
    public void The_claim_frees_the_hold_books_it_through_dbo_reserve_and_holds_it_again_when_not_booked()
    {
        var tree = Proc();
        var seats = SeatUpdates(tree);
        var reserve = Reserve(tree);

        Assert.Equal(2, seats.Count);
        Assert.StartsWith("UPDATE DBO.HOT_SEATS WITH (SNAPSHOT) SET HOLD = 0, OFFER_ID = NULL", SqlScripts.Text(seats[0]), StringComparison.Ordinal);
        Assert.EndsWith("AND SEAT_NO = @SEAT_NO AND OFFER_ID = @OFFER", SqlScripts.Text(seats[0].WhereClause), StringComparison.Ordinal);
        Assert.Equal("reserve", SqlScripts.NameOf(reserve.ProcedureReference.ProcedureReference.Name));
        Assert.True(seats[0].StartOffset < reserve.StartOffset, "the hold is freed before dbo.reserve looks for a free seat");
        var call = SqlScripts.Text(reserve);
        Assert.Contains("@IDEMPOTENCY_KEY = @KEY, @FINGERPRINT = 'WAITLIST-OFFER'", call, StringComparison.Ordinal);
        Assert.Contains("@SEAT_HINT = @SEAT_HINT", call, StringComparison.Ordinal);
        Assert.Contains("@OUTCOME = @OUTCOME OUTPUT", call, StringComparison.Ordinal);

        var refused = Assert.Single(SqlScripts.All<IfStatement>(tree), i => SqlScripts.Text(i.Predicate) == "@OUTCOME IS NULL OR @OUTCOME <> 1");
        Assert.True(reserve.StartOffset < refused.StartOffset);
        var restore = Assert.Single(SeatUpdates(refused.ThenStatement));
        Assert.Same(seats[1], restore);
        Assert.StartsWith("UPDATE DBO.HOT_SEATS WITH (SNAPSHOT) SET HOLD = 1, OFFER_ID = @OFFER", SqlScripts.Text(restore), StringComparison.Ordinal);
        Assert.EndsWith("AND SEAT_NO = @SEAT_NO AND HOLD = 0 AND CODE IS NULL", SqlScripts.Text(restore.WhereClause), StringComparison.Ordinal);
        // The refusal recorded under the offer's key goes too, as PostgreSQL's sub-transaction rolls it back.
        var forget = Assert.Single(SqlScripts.All<DeleteSpecification>(refused.ThenStatement));
        Assert.Equal("idempotency", NameOf(forget.Target));
        Assert.Contains("SET @STATUS = IIF(@OUTCOME = 3, 4, 2)", SqlScripts.Text(refused.ThenStatement), StringComparison.Ordinal);
    }

    [Fact]
    public void The_key_and_the_hold_are_the_offers_own()
    {
        var text = SqlScripts.Text(Proc());

        // The hold names its offer in a column of its own; no seat's code carries it.
        Assert.Contains("SET HOLD = 1, OFFER_ID = @OFFER", text, StringComparison.Ordinal);
        Assert.DoesNotContain("'~", text, StringComparison.Ordinal);
        Assert.Contains("@KEY VARCHAR(100) = 'WAITLIST-OFFER-' + CONVERT(VARCHAR(20), @OFFER)", text, StringComparison.Ordinal);
    }

    [Fact]
    public void A_booked_claim_marks_the_offer_claimed_and_the_entry_booked_after_the_booking()
    {
        var tree = Proc();
        var reserve = Reserve(tree);
        var disk = SqlScripts.All<UpdateSpecification>(tree).Where(u => NameOf(u.Target) is "waitlist" or "waitlist_offers").ToList();

        Assert.Equal(
            ["UPDATE DBO.WAITLIST_OFFERS SET STATE = 2, DECIDED_AT = @NOW, CODE = @BOOKED_CODE WHERE ID = @OFFER",
             "UPDATE DBO.WAITLIST SET STATE = 3, DECIDED_AT = @NOW WHERE ID = @ENTRY"],
            disk.Select(SqlScripts.Text));
        Assert.All(disk, u => Assert.True(reserve.StartOffset < u.StartOffset));
    }

    [Fact]
    public void At_a_two_dose_service_the_second_dose_is_seated_after_the_booking_and_none_free_rolls_the_claim_back_whole()
    {
        var tree = Proc();
        var reserve = Reserve(tree);
        var pair = Assert.Single(SqlScripts.All<IfStatement>(tree), i => SqlScripts.Text(i.Predicate) == "@SECOND_CODE IS NOT NULL AND @REPLAYED = 0");
        var second = Assert.Single(SqlScripts.All<ExecutableProcedureReference>(pair.ThenStatement));
        var claimed = Assert.Single(SqlScripts.All<UpdateSpecification>(tree), u => NameOf(u.Target) == "waitlist_offers");

        Assert.Equal("seat_second_dose", SqlScripts.NameOf(second.ProcedureReference.ProcedureReference.Name));
        Assert.True(reserve.StartOffset < second.StartOffset && second.StartOffset < claimed.StartOffset);
        Assert.Contains("@FIRST_CODE = @BOOKED_CODE", SqlScripts.Text(second), StringComparison.Ordinal);
        var none = Assert.Single(SqlScripts.All<IfStatement>(pair.ThenStatement), i => SqlScripts.Text(i.Predicate) == "@DAY2 IS NULL");
        // The hold's end and the booking go back with the transaction: the seat is held as before the claim.
        Assert.Single(SqlScripts.All<RollbackTransactionStatement>(none.ThenStatement));
        Assert.Contains("SET @STATUS = 5", SqlScripts.Text(none.ThenStatement), StringComparison.Ordinal);
        Assert.Empty(SqlScripts.All<UpdateSpecification>(none.ThenStatement));
    }

    [Fact]
    public void The_second_dose_is_seated_inside_its_callers_transaction_touching_hot_tables_with_snapshot()
    {
        var tree = Proc("seat_second_dose");
        var proc = Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(tree));

        Assert.DoesNotContain(ProcedureOptionKind.NativeCompilation, proc.Options.Select(o => o.OptionKind));
        Assert.Empty(SqlScripts.All<BeginTransactionStatement>(tree));
        Assert.Empty(SqlScripts.All<CommitTransactionStatement>(tree));
        Assert.Empty(SqlScripts.All<RollbackTransactionStatement>(tree));
        var hot = SqlScripts.All<NamedTableReference>(tree).Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject))).ToList();
        Assert.NotEmpty(hot);
        Assert.All(hot, t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
        Assert.Contains("INSERT DBO.DOSE_PAIRS", SqlScripts.Text(tree), StringComparison.Ordinal);
    }

    [Fact]
    public void A_claim_again_answers_the_booking_the_first_one_made_before_looking_for_an_open_offer()
    {
        var tree = Proc();
        var offers = SqlScripts.All<QuerySpecification>(tree)
            .Where(q => q.FromClause is not null && SqlScripts.Text(q.FromClause).StartsWith("FROM DBO.WAITLIST_OFFERS", StringComparison.Ordinal))
            .OrderBy(q => q.StartOffset).ToList();

        Assert.Equal(2, offers.Count);
        Assert.Equal("WHERE ENTRY_ID = @ENTRY AND STATE = 2", SqlScripts.Text(offers[0].WhereClause));
        Assert.Equal("WHERE ENTRY_ID = @ENTRY AND STATE = 1", SqlScripts.Text(offers[1].WhereClause));
    }

    [Fact]
    public void The_procs_beside_the_hot_path_follow_the_seat_holds_in_their_own_block()
    {
        Assert.Equal(
            ["101_proc_waitlist_want.sql", "102_proc_waitlist_mark_wanted.sql", "103_proc_waitlist_offer.sql",
             "104_proc_waitlist_keep_for_line.sql", "105_proc_waitlist_release_seat.sql"],
            HotSeatProcs.Select(p => SqlScripts.FileOf("proc", p)));
    }

    [Theory]
    [MemberData(nameof(ProcNames))]
    public void Every_proc_the_store_calls_parses_as_SQL_Server_2016_and_2022_T_SQL_interpreted_with_hot_tables_read_with_snapshot(string name)
    {
        var file = SqlScripts.FileOf("proc", name);
        Parse(file, new TSql130Parser(initialQuotedIdentifiers: true));
        var tree = Parse(file, new TSql160Parser(initialQuotedIdentifiers: true));
        var proc = Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(tree));
        Assert.Equal(name, SqlScripts.NameOf(proc.ProcedureReference.Name));
        Assert.DoesNotContain(ProcedureOptionKind.NativeCompilation, proc.Options.Select(o => o.OptionKind));
        var hot = SqlScripts.All<NamedTableReference>(tree).Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject)));
        Assert.All(hot, t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
        Assert.DoesNotContain(SqlScripts.All<SetTransactionIsolationLevelStatement>(tree), s => s.Level == IsolationLevel.Snapshot);
    }

    [Fact]
    public void The_offer_of_several_statements_is_one_transaction_that_aborts_whole()
    {
        var tree = Proc("waitlist_offer");

        Assert.Contains(SqlScripts.All<PredicateSetStatement>(tree), s => s.Options.HasFlag(SetOptions.XactAbort) && s.IsOn);
        Assert.Single(SqlScripts.All<BeginTransactionStatement>(tree));
    }

    [Fact]
    public void A_join_widens_the_days_its_place_wants_and_adds_them_when_none_were_wanted()
    {
        var tree = Proc("waitlist_want");

        var widen = Assert.Single(SqlScripts.All<UpdateSpecification>(tree), u => NameOf(u.Target) == "waitlist_wanted");
        var first = Assert.Single(SqlScripts.All<InsertSpecification>(tree), i => NameOf(i.Target) == "waitlist_wanted");
        Assert.True(widen.StartOffset < first.StartOffset);
        Assert.Equal(
            "SET FROM_DAY = IIF(@FROM < FROM_DAY, @FROM, FROM_DAY), TO_DAY = IIF(@TO > TO_DAY, @TO, TO_DAY)",
            "SET " + string.Join(", ", widen.SetClauses.Select(SqlScripts.Text)));
        Assert.Equal("@@ROWCOUNT = 0", SqlScripts.Text(Assert.Single(SqlScripts.All<IfStatement>(tree)).Predicate));
        // It runs inside the join's EF Core transaction, after the entry is written: no transaction of its own.
        Assert.Empty(SqlScripts.All<BeginTransactionStatement>(tree));
    }

    [Fact]
    public void The_offer_job_sets_the_wanted_days_to_its_waiting_entries_range_or_drops_them()
    {
        var tree = Proc("waitlist_mark_wanted");

        var line = Assert.Single(SqlScripts.All<QuerySpecification>(tree), q => q.FromClause is not null && SqlScripts.Text(q.FromClause) == "FROM DBO.WAITLIST");
        Assert.Equal("WHERE PLACE_ID = @PLACE_ID AND STATE = 1", SqlScripts.Text(line.WhereClause));
        Assert.Equal(["MIN(FROM_DAY)", "MAX(TO_DAY)"], line.SelectElements.Cast<SelectSetVariable>().Select(v => SqlScripts.Text(v.Expression)));
        Assert.Single(SqlScripts.All<DeleteSpecification>(tree), d => NameOf(d.Target) == "waitlist_wanted");
        Assert.Single(SqlScripts.All<UpdateSpecification>(tree), u => NameOf(u.Target) == "waitlist_wanted");
    }

    [Theory]
    [InlineData("cancel")]
    [InlineData("reschedule")]
    public void A_seat_freed_on_a_day_the_line_wants_is_kept_for_the_line_by_the_native_proc(string name)
    {
        var tree = SqlScripts.Tree(SqlScripts.FileOf("proc", name));

        var wanted = Assert.Single(SqlScripts.All<QuerySpecification>(tree), q => q.FromClause is not null && SqlScripts.Text(q.FromClause) == "FROM DBO.WAITLIST_WANTED");
        Assert.Equal("WHERE PLACE_ID = @PLACE_ID", SqlScripts.Text(wanted.WhereClause));
        var keep = Assert.Single(SqlScripts.All<IfStatement>(tree), i => SqlScripts.Text(i.Predicate).Contains("@WANTED_FROM", StringComparison.Ordinal));
        Assert.Equal("@WANTED_FROM IS NOT NULL AND @DAY >= @WANTED_FROM AND @DAY <= @WANTED_TO", SqlScripts.Text(keep.Predicate));
        Assert.Equal("SET @RELEASE = 1;", SqlScripts.Text(keep.ThenStatement));
        // Every release of the booking's own seat clears its code and writes @release as its hold: 0 (anybody's) or 1 (the line's).
        var releases = SqlScripts.All<UpdateSpecification>(tree)
            .Where(u => NameOf(u.Target) == "hot_seats" && SqlScripts.Text(u.WhereClause!).EndsWith("AND CODE = @CODE", StringComparison.Ordinal))
            .ToList();
        Assert.NotEmpty(releases);
        Assert.All(releases, u => Assert.Equal(["CODE = NULL", "HOLD = @RELEASE"], u.SetClauses.Select(SqlScripts.Text)));
        Assert.True(wanted.StartOffset < releases.Min(u => u.StartOffset));
    }

    [Fact]
    public void The_offer_updates_the_entry_before_its_offer_as_the_claim_locks_them()
    {
        const string name = "waitlist_offer";
        var updates = SqlScripts.All<UpdateSpecification>(Proc(name))
            .Select(u => u.FromClause is null ? NameOf(u.Target) : SqlScripts.Text(u.FromClause))
            .ToList();

        var entry = updates.FindIndex(u => u is "waitlist" || u.StartsWith("FROM DBO.WAITLIST W", StringComparison.Ordinal));
        var offer = updates.FindIndex(u => u is "waitlist_offers" || u.StartsWith("FROM DBO.WAITLIST_OFFERS O", StringComparison.Ordinal));
        Assert.True(entry >= 0, $"{name} updates no entry");
        Assert.True(offer < 0 || entry < offer, $"{name} updates an offer before its entry");
    }

    [Fact]
    public void A_seat_whose_hold_ends_without_a_claim_goes_back_to_the_line()
    {
        var tree = Proc("waitlist_keep_for_line");
        var back = Assert.Single(SqlScripts.All<UpdateSpecification>(tree), u => u.FromClause is not null
            && SqlScripts.Text(u.FromClause).StartsWith("FROM DBO.HOT_SEATS S WITH (SNAPSHOT)", StringComparison.Ordinal));

        Assert.StartsWith("UPDATE S SET OFFER_ID = NULL", SqlScripts.Text(back), StringComparison.Ordinal);
        Assert.Equal("WHERE S.OFFER_ID = F.ID", SqlScripts.Text(back.WhereClause));
        // Only the seats of the offers the caller decided now, in the state it decided them in.
        Assert.Contains("F.STATE = @STATE AND F.DECIDED_AT = @AT", SqlScripts.Text(back.FromClause), StringComparison.Ordinal);
        Assert.Empty(SqlScripts.All<BeginTransactionStatement>(tree));
    }

    [Fact]
    public void An_offer_holds_a_seat_only_while_it_is_free_or_kept_and_queues_the_sms_with_the_offers_message_code_and_note()
    {
        var tree = Proc("waitlist_offer");

        var hold = Assert.Single(SeatUpdates(tree));
        Assert.StartsWith("UPDATE DBO.HOT_SEATS WITH (SNAPSHOT) SET HOLD = 1, OFFER_ID = @ID", SqlScripts.Text(hold), StringComparison.Ordinal);
        Assert.EndsWith("AND CODE IS NULL AND OFFER_ID IS NULL", SqlScripts.Text(hold.WhereClause), StringComparison.Ordinal);
        var outbox = Assert.Single(SqlScripts.All<InsertSpecification>(tree), i => NameOf(i.Target) == "outbox");
        Assert.Contains("VALUES (6, @MESSAGE, @PHONE, @LANGUAGE, @PLACE_ID, @DAY, @START_MINUTE, @NOW, NULL, @NOTE)", SqlScripts.Text(outbox), StringComparison.Ordinal);
        Assert.Single(SqlScripts.All<RollbackTransactionStatement>(tree));
    }

    [Fact]
    public void Only_seats_kept_for_the_line_are_given_back()
    {
        var release = Assert.Single(SeatUpdates(Proc("waitlist_release_seat")));

        Assert.StartsWith("UPDATE DBO.HOT_SEATS WITH (SNAPSHOT) SET HOLD = 0", SqlScripts.Text(release), StringComparison.Ordinal);
        Assert.EndsWith("AND HOLD = 1 AND OFFER_ID IS NULL", SqlScripts.Text(release.WhereClause), StringComparison.Ordinal);
    }
}
