using Microsoft.SqlServer.TransactSql.ScriptDom;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>The sql/ scripts as copied next to the tests, parsed by the real T-SQL parser.</summary>
public static class SqlScripts
{
    // Declared before HotTables, which includes them: static fields initialize in text order.
    /// <summary>The waiting room's counters, beside the hot tables (memory-optimized too).</summary>
    public static readonly string[] AdmissionTables =
        ["waiting_room_openings", "waiting_room_joins", "waiting_room_waves", "waiting_room_claims"];

    /// <summary>The door's record of a booking: read by the native cancel, so memory-optimized too.</summary>
    public static readonly string[] StaffTables = ["attendance"];

    /// <summary>The days a place's waiting list wants: read by the native cancel and reschedule, so memory-optimized too.</summary>
    public static readonly string[] WaitingListTables = ["waitlist_wanted"];

    public static readonly string[] HotTables =
        ["hot_seats", "hot_reservations", "active_persons", "idempotency", "outbox", "changes", .. AdmissionTables, .. StaffTables, .. WaitingListTables];

    /// <summary>The waiting room's interpreted procs: a batch of joins, a counter step, a claim.</summary>
    public static readonly string[] AdmissionProcs = ["waiting_room_join", "waiting_room_step", "waiting_room_claim"];

    public static readonly string[] DiskTables = ["places", "slots", "reservations", "job_runs", "staff_audit", "reminders", "waitlist", "waitlist_offers", "wrong_proofs", "machine_keys", "services", "place_services"];

    /// <summary>Quartz.NET's job store tables, deployed as one script.</summary>
    public const string QuartzJobStore = "022_quartz_job_store.sql";

    public static readonly string[] NativeProcs =
        ["reserve", "reserve_batch", "cancel", "reschedule", "availability", "find_reservation", "staff_check_in"];

    public static readonly string[] SyncProcs = ["load_hot_days", "flush_changes", "evict_hot_days"];

    /// <summary>Interpreted procs of the cold side that lock a place's row, as the window mover does.</summary>
    public static readonly string[] CatalogueProcs = ["add_slots"];

    public static string Folder => Path.Combine(AppContext.BaseDirectory, "sql");

    public static IEnumerable<string> Files() => Directory.GetFiles(Folder, "*.sql").Order(StringComparer.Ordinal);

    public static TheoryData<string> FileNames() => [.. Files().Select(f => Path.GetFileName(f))];

    public static string Read(string fileName) => File.ReadAllText(Path.Combine(Folder, fileName));

    /// <summary>Parses with the given parser; returns the tree and the errors.</summary>
    public static (TSqlFragment Tree, IList<ParseError> Errors) Parse(string fileName, TSqlParser? parser = null)
    {
        parser ??= new TSql160Parser(initialQuotedIdentifiers: true);
        using var reader = new StringReader(Read(fileName));
        var tree = parser.Parse(reader, out var errors);
        return (tree, errors);
    }

    public static TSqlFragment Tree(string fileName)
    {
        var (tree, errors) = Parse(fileName);
        Assert.Empty(errors);
        return tree;
    }

    /// <summary>
    /// The file that creates the named object (tables NNN_table_x, procs NNN_proc_x, types NNN_type_x).
    /// A proc redefined by a later script would be the last one, the body that runs.
    /// </summary>
    public static string FileOf(string kind, string name) =>
        Path.GetFileName(Files().Last(f => Path.GetFileNameWithoutExtension(f)[4..] == $"{kind}_{name}"));

    /// <summary>Every file that defines the named object, in deploy order.</summary>
    public static List<string> FilesOf(string kind, string name) =>
        [.. Files().Where(f => Path.GetFileNameWithoutExtension(f)[4..] == $"{kind}_{name}").Select(f => Path.GetFileName(f))];

    /// <summary>Every fragment of type T in the tree.</summary>
    public static List<T> All<T>(TSqlFragment tree) where T : TSqlFragment
    {
        var collector = new Collector<T>();
        tree.Accept(collector);
        return collector.Found;
    }

    /// <summary>The fragment's own text, from the token stream, with whitespace collapsed and upper-cased.</summary>
    public static string Text(TSqlFragment fragment)
    {
        var tokens = fragment.ScriptTokenStream
            .Skip(fragment.FirstTokenIndex)
            .Take(fragment.LastTokenIndex - fragment.FirstTokenIndex + 1)
            .Where(t => t.TokenType is not (TSqlTokenType.SingleLineComment or TSqlTokenType.MultilineComment))
            .Select(t => t.TokenType == TSqlTokenType.WhiteSpace ? " " : t.Text);
        return string.Join(' ', string.Concat(tokens).Split(' ', StringSplitOptions.RemoveEmptyEntries)).ToUpperInvariant();
    }

    public static string NameOf(SchemaObjectName name) => name.BaseIdentifier.Value.ToLowerInvariant();

    private sealed class Collector<T> : TSqlFragmentVisitor where T : TSqlFragment
    {
        public List<T> Found { get; } = [];

        public override void Visit(TSqlFragment fragment)
        {
            if (fragment is T match)
            {
                Found.Add(match);
            }
        }
    }
}
