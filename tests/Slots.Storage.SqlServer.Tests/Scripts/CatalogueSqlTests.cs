using System.Data;
using System.Data.Common;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Diagnostics;
using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Catalogue;
using Slots.Places;
using Slots.Staff;
using Slots.Storage;
using Slots.Storage.Ef;
using Slots.Storage.SqlServer;
using Slots.Storage.SqlServer.Ef;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// The catalogue's SQL on SQL Server: dbo.add_slots, and what the shared EF Core store sends for the
/// places and the day totals on SQL Server's provider (run with the connection's open suppressed and
/// every query answered with no rows, so each command is caught before it would leave).
/// </summary>
public sealed class CatalogueSqlTests
{
    private static TSqlFragment Parse(string sql, TSqlParser parser)
    {
        using var reader = new StringReader(sql);
        var tree = parser.Parse(reader, out var errors);
        Assert.Empty(errors.Select(e => $"{e.Line}:{e.Column} {e.Message}"));
        return tree;
    }

    /// <summary>The commands one call of the SQL Server catalogue store sends, in order.</summary>
    private static async Task<List<string>> SentAsync(Func<SqlServerCatalogStore, CancellationToken, Task> call)
    {
        var recorder = new Recorder();
        var options = new DbContextOptionsBuilder<SlotsDbContext>();
        SqlServerModel.Use(options, "Server=127.0.0.1,1;Database=slots;User Id=sa;Password=unused");
        options.AddInterceptors(recorder);
        await using var db = new SlotsDbContext(options.Options);
        await call(new SqlServerCatalogStore(db, new SqlServerConnectionString("")), TestContext.Current.CancellationToken);
        return recorder.Sent;
    }

    public static TheoryData<string> Reads() => [.. ReadCalls.Keys];

    private static readonly Dictionary<string, Func<SqlServerCatalogStore, CancellationToken, Task>> ReadCalls = new()
    {
        ["list places"] = (s, ct) => s.ListPlacesAsync(new PlaceQuery("Bratislava", "čaká", 2, 20), ct),
        ["find place"] = (s, ct) => s.FindPlaceAsync(7, ct),
        ["all places"] = (s, ct) => s.AllPlacesAsync(ct),
        ["regions"] = (s, ct) => s.RegionsAsync(ct),
        ["day totals"] = (s, ct) => s.DayTotalsAsync(new DateOnly(2099, 1, 1), new DateOnly(2099, 1, 31), 7, null, ct),
        ["day totals of a service"] = (s, ct) => s.DayTotalsAsync(new DateOnly(2099, 1, 1), new DateOnly(2099, 1, 31), null, 2, ct),
    };

    [Theory]
    [MemberData(nameof(Reads))]
    public async Task Every_catalogue_read_parses_as_SQL_Server_2016_and_2022_T_SQL_over_the_tables_sql_creates(string name)
    {
        var sent = await SentAsync(ReadCalls[name]);

        Assert.NotEmpty(sent);
        foreach (var sql in sent)
        {
            Parse(sql, new TSql130Parser(initialQuotedIdentifiers: true));
            var tree = Parse(sql, new TSql160Parser(initialQuotedIdentifiers: true));
            Assert.All(SqlScripts.All<NamedTableReference>(tree), t => Assert.Contains(SqlScripts.NameOf(t.SchemaObject), SqlScripts.HotTables.Concat(SqlScripts.DiskTables)));
        }
    }

    [Fact]
    public async Task The_name_search_lower_cases_with_SQL_Servers_own_LOWER_and_escapes_like_the_query_says()
    {
        var sent = await SentAsync(ReadCalls["list places"]);

        // The count of the page's matches goes first and fails on no rows; its text is all this needs.
        var where = SqlScripts.Text(Assert.Single(SqlScripts.All<QuerySpecification>(Parse(sent[0], new TSql160Parser(true)))).WhereClause);
        Assert.Contains("LOWER([P].[NAME]) LIKE @", where, StringComparison.Ordinal);
        Assert.Contains("ESCAPE N'\\'", where, StringComparison.Ordinal);
        Assert.Contains("[P].[REGION] = @", where, StringComparison.Ordinal);
    }

    // Issue #28: the door's check-ins and no-shows in the stats; a place filter that misses one result set would mix places.
    [Fact]
    public async Task Day_totals_count_the_doors_check_ins_and_no_shows_and_every_result_set_takes_the_place_filter()
    {
        var sent = await SentAsync(ReadCalls["day totals"]);

        var selects = sent.Select(sql => SqlScripts.All<QuerySpecification>(Parse(sql, new TSql160Parser(true))).OrderBy(q => q.StartOffset).First()).ToList();
        Assert.Equal(4, selects.Count);
        Assert.All(selects, q => Assert.Contains("@PLACEID", SqlScripts.Text(q.WhereClause), StringComparison.Ordinal));
        var door = Assert.Single(selects, q => SqlScripts.All<NamedTableReference>(q).Any(t => SqlScripts.NameOf(t.SchemaObject) == "attendance"));
        Assert.EndsWith($"AND [A].[STATE] IN ({(int)RosterState.CheckedIn}, {(int)RosterState.NoShow})", SqlScripts.Text(door.WhereClause), StringComparison.Ordinal);
    }

    /// <summary>Keeps the connection closed, records each command's text, and answers it with no rows (a bare count with 0).</summary>
    private sealed class Recorder : DbCommandInterceptor, IDbConnectionInterceptor
    {
        public List<string> Sent { get; } = [];

        public ValueTask<InterceptionResult> ConnectionOpeningAsync(DbConnection connection, ConnectionEventData eventData, InterceptionResult result,
            CancellationToken cancellationToken = default) => ValueTask.FromResult(InterceptionResult.Suppress());

        public override ValueTask<InterceptionResult<DbDataReader>> ReaderExecutingAsync(DbCommand command, CommandEventData eventData,
            InterceptionResult<DbDataReader> result, CancellationToken cancellationToken = default)
        {
            Sent.Add(command.CommandText);
            var rows = new DataTable();
            if (command.CommandText.StartsWith("SELECT COUNT(*)", StringComparison.Ordinal))
            {
                rows.Columns.Add("count", typeof(int));
                rows.Rows.Add(0);
            }
            return ValueTask.FromResult(InterceptionResult<DbDataReader>.SuppressWithResult(rows.CreateDataReader()));
        }
    }

    [Fact]
    public void Catalogue_procs_are_interpreted_lock_the_place_and_read_hot_tables_with_snapshot_hints()
    {
        foreach (var name in SqlScripts.CatalogueProcs)
        {
            var tree = SqlScripts.Tree(SqlScripts.FileOf("proc", name));
            var proc = Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(tree));
            Assert.DoesNotContain(ProcedureOptionKind.NativeCompilation, proc.Options.Select(o => o.OptionKind));
            var tables = SqlScripts.All<NamedTableReference>(tree);
            Assert.All(tables.Where(t => SqlScripts.HotTables.Contains(SqlScripts.NameOf(t.SchemaObject))),
                t => Assert.Contains(t.TableHints, h => h.HintKind == TableHintKind.Snapshot));
            var place = Assert.Single(tables, t => SqlScripts.NameOf(t.SchemaObject) == "places");
            Assert.Contains(place.TableHints, h => h.HintKind == TableHintKind.UpdLock);
            Assert.Contains(place.TableHints, h => h.HintKind == TableHintKind.HoldLock);
            Assert.Contains("SET XACT_ABORT ON", SqlScripts.Text(proc), StringComparison.Ordinal);
            Assert.Single(SqlScripts.All<BeginTransactionStatement>(tree));
            Assert.Single(SqlScripts.All<CommitTransactionStatement>(tree));
        }
    }

    [Fact]
    public void The_slot_list_the_adapter_sends_has_the_columns_of_the_table_type_in_order()
    {
        var type = Assert.Single(SqlScripts.All<CreateTypeTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("type", "slot_list"))));
        var declared = type.Definition.ColumnDefinitions.Select(c => c.ColumnIdentifier.Value).ToList();

        var sent = SqlServerCommands.SlotList([new SlotRow { PlaceId = 1, Day = new DateOnly(2026, 12, 1), StartMinute = 480, Minutes = 15, Capacity = 4, StartsAt = 1 }]);

        Assert.Equal(declared, sent.Columns.Cast<System.Data.DataColumn>().Select(c => c.ColumnName));
        Assert.Equal(new object[] { new DateTime(2026, 12, 1), 480, 15, 4, 1L }, sent.Rows[0].ItemArray);
    }

    [Fact]
    public void Add_slots_takes_the_slot_list_type_read_only()
    {
        var proc = Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(SqlScripts.Tree(SqlScripts.FileOf("proc", "add_slots"))));
        var list = Assert.Single(proc.Parameters, p => p.VariableName.Value == "@slots");
        Assert.Equal("slot_list", list.DataType.Name.BaseIdentifier.Value);
        Assert.Equal(Microsoft.SqlServer.TransactSql.ScriptDom.ParameterModifier.ReadOnly, list.Modifier);
    }
}
