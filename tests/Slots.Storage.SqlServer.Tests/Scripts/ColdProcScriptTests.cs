using Microsoft.SqlServer.TransactSql.ScriptDom;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// The cold-path procs (sql/040-045) as the parser reads them: interpreted T-SQL, one transaction
/// per write, hot tables only WITH (SNAPSHOT), and the lock hints that keep cold writers and the
/// window mover (dbo.load_hot_days) from overlapping.
/// </summary>
public sealed class ColdProcScriptTests
{
    public static readonly string[] WriteProcs = ["cold_reserve", "cold_cancel", "cold_reschedule"];

    public static readonly string[] ReadProcs = ["cold_find_reservation", "cold_availability", "cold_horizon", "cold_was_cancelled"];

    public static TheoryData<string> Writes() => [.. WriteProcs];

    public static TheoryData<string> AllProcs() => [.. WriteProcs, .. ReadProcs];

    private static TSqlFragment Tree(string proc) => SqlScripts.Tree(SqlScripts.FileOf("proc", proc));

    private static List<NamedTableReference> References(TSqlFragment tree, string table) =>
        SqlScripts.All<NamedTableReference>(tree).Where(t => SqlScripts.NameOf(t.SchemaObject) == table).ToList();

    private static List<TableHintKind> Hints(NamedTableReference table) => [.. table.TableHints.Select(h => h.HintKind)];

    [Fact]
    public void The_cold_procs_are_numbered_from_040_in_operation_order()
    {
        Assert.Equal(
            ["040_proc_cold_reserve.sql", "041_proc_cold_cancel.sql", "042_proc_cold_reschedule.sql",
             "043_proc_cold_find_reservation.sql", "044_proc_cold_availability.sql", "045_proc_cold_horizon.sql",
             "047_proc_cold_was_cancelled.sql"],
            WriteProcs.Concat(ReadProcs).Select(p => SqlScripts.FileOf("proc", p)));
    }

    [Theory]
    [MemberData(nameof(AllProcs))]
    public void Cold_procs_are_interpreted_not_natively_compiled(string proc)
    {
        var created = Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(Tree(proc)));
        Assert.Equal(proc, SqlScripts.NameOf(created.ProcedureReference.Name));
        Assert.DoesNotContain(ProcedureOptionKind.NativeCompilation, created.Options.Select(o => o.OptionKind));
        Assert.Empty(SqlScripts.All<BeginEndAtomicBlockStatement>(created));
    }

    [Theory]
    [MemberData(nameof(AllProcs))]
    public void Every_hot_table_reference_in_a_cold_proc_carries_WITH_SNAPSHOT(string proc)
    {
        var tree = Tree(proc);
        var hot = SqlScripts.All<NamedTableReference>(tree).Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject))).ToList();

        Assert.All(hot, t => Assert.Contains(TableHintKind.Snapshot, Hints(t)));
        // Never SNAPSHOT as the session's isolation level: interpreted SNAPSHOT transactions may not touch memory-optimized tables.
        Assert.DoesNotContain(SqlScripts.All<SetTransactionIsolationLevelStatement>(tree), s => s.Level == IsolationLevel.Snapshot);
    }

    [Fact]
    public void The_snapshot_check_is_not_vacuous_reserve_touches_every_hot_table_it_needs()
    {
        var tree = Tree("cold_reserve");

        foreach (var table in new[] { "idempotency", "active_persons", "hot_reservations", "outbox" })
        {
            Assert.NotEmpty(References(tree, table));
        }
    }

    [Theory]
    [MemberData(nameof(Writes))]
    public void A_cold_write_is_one_transaction_that_aborts_whole_on_any_error(string proc)
    {
        var tree = Tree(proc);

        Assert.Contains(SqlScripts.All<PredicateSetStatement>(tree), s => s.Options.HasFlag(SetOptions.XactAbort) && s.IsOn);
        Assert.Single(SqlScripts.All<BeginTransactionStatement>(tree));
        Assert.NotEmpty(SqlScripts.All<CommitTransactionStatement>(tree));
        Assert.Empty(SqlScripts.All<RollbackTransactionStatement>(tree)); // XACT_ABORT rolls back; no partial path
        Assert.Empty(SqlScripts.All<SaveTransactionStatement>(tree));
    }

    [Theory]
    [MemberData(nameof(Writes))]
    public void Every_early_return_commits_first(string proc)
    {
        // A RETURN with the transaction still open ends the call with error 266 and leaves it to the client.
        var lists = SqlScripts.All<StatementList>(Tree(proc));
        var returns = 0;
        foreach (var list in lists)
        {
            for (var i = 0; i < list.Statements.Count; i++)
            {
                if (list.Statements[i] is ReturnStatement)
                {
                    returns++;
                    Assert.True(i > 0 && list.Statements[i - 1] is CommitTransactionStatement, $"{proc}: a RETURN without COMMIT before it");
                }
            }
        }
        Assert.True(returns > 0, $"{proc} has no early answer; the check above would prove nothing");
    }

    [Theory]
    [MemberData(nameof(Writes))]
    public void A_cold_write_reads_the_horizon_under_a_shared_held_lock_on_the_place_row(string proc)
    {
        var places = References(Tree(proc), "places");

        Assert.NotEmpty(places);
        Assert.All(places, p =>
        {
            var hints = Hints(p);
            Assert.True(hints.Contains(TableHintKind.HoldLock) || hints.Contains(TableHintKind.Serializable), $"{proc}: places read without HOLDLOCK");
            // Shared: cold writers of one place must not queue behind each other on this row.
            Assert.DoesNotContain(TableHintKind.UpdLock, hints);
            Assert.DoesNotContain(TableHintKind.XLock, hints);
        });
    }

    [Fact]
    public void The_window_mover_takes_the_place_row_exclusively_so_it_never_overlaps_a_cold_write()
    {
        // U is compatible with the cold writers' S; only X waits for them and holds new ones off.
        var places = References(SqlScripts.Tree(SqlScripts.FileOf("proc", "load_hot_days")), "places")
            .Where(p => p.TableHints.Count > 0).ToList();

        var locked = Assert.Single(places);
        Assert.Contains(TableHintKind.XLock, Hints(locked));
        Assert.Contains(TableHintKind.HoldLock, Hints(locked));
    }

    [Theory]
    [InlineData("cold_reserve")]
    [InlineData("cold_reschedule")]
    public void The_slot_row_is_locked_for_update_while_a_seat_is_picked(string proc)
    {
        var slots = References(Tree(proc), "slots");

        Assert.Contains(slots, s => Hints(s).Contains(TableHintKind.UpdLock) && Hints(s).Contains(TableHintKind.HoldLock));
    }

    [Theory]
    [InlineData("cold_cancel")]
    [InlineData("cold_reschedule")]
    public void The_reservation_row_is_locked_before_the_place_row(string proc)
    {
        var tree = Tree(proc);
        var firstReservations = References(tree, "reservations").OrderBy(t => t.StartOffset).First();
        var firstPlaces = References(tree, "places").OrderBy(t => t.StartOffset).First();

        Assert.Contains(TableHintKind.UpdLock, Hints(firstReservations));
        Assert.True(firstReservations.StartOffset < firstPlaces.StartOffset, $"{proc} locks the place before the reservation");
    }

    [Fact]
    public void A_reschedule_locks_both_places_in_id_order_one_statement_each()
    {
        var places = References(Tree("cold_reschedule"), "places").OrderBy(t => t.StartOffset).ToList();
        var selects = SqlScripts.All<SelectStatement>(Tree("cold_reschedule"))
            .Where(s => References(s, "places").Count > 0)
            .Select(SqlScripts.Text)
            .ToList();

        Assert.Equal(2, places.Count);
        Assert.Equal(2, selects.Count);
        Assert.Contains("WHERE ID = @LOW_ID", selects[0], StringComparison.Ordinal);
        Assert.Contains("WHERE ID = @HIGH_ID", selects[1], StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Writes))]
    public void A_cold_write_announces_itself_in_the_outbox_and_writes_no_change_record(string proc)
    {
        var tree = Tree(proc);
        var inserts = SqlScripts.All<InsertSpecification>(tree)
            .Select(i => i.Target).OfType<NamedTableReference>().Select(t => SqlScripts.NameOf(t.SchemaObject)).ToList();

        Assert.Contains("outbox", inserts);
        // The disk row is the reservation; change records are for hot rows only (flush would double it).
        Assert.Empty(References(tree, "changes"));
    }

    [Theory]
    [MemberData(nameof(AllProcs))]
    public void Cold_procs_touch_only_known_tables(string proc)
    {
        var tables = SqlScripts.All<NamedTableReference>(Tree(proc)).Select(t => SqlScripts.NameOf(t.SchemaObject)).Distinct();

        Assert.All(tables, t => Assert.Contains(t, SqlScripts.HotTables.Concat(SqlScripts.DiskTables)));
    }
}
