using System.Data;
using System.Data.Common;
using Microsoft.Data.SqlClient;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Diagnostics;
using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Storage.Ef;
using Slots.Storage.Ef.WaitingList;
using Slots.Storage.SqlServer.Ef;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// What SaveChanges sends to SQL Server for the shared stores' writes, caught before it leaves (no
/// server here): T-SQL that SQL Server 2016 parses, over the tables sql/ creates, with no MERGE into
/// a memory-optimized table and parameters typed as the columns are.
/// </summary>
public sealed class EfSaveSqlTests
{
    private const string ConnectionString = "Server=127.0.0.1,1;Database=slots;User Id=sa;Password=unused";

    private static void RemindTwo(SlotsDbContext db)
    {
        foreach (var code in new[] { "ABCDE-FGHJK", "BCDEF-GHJKL" })
        {
            db.Reminders.Add(new ReminderRecord { Code = code, StartsAt = 100, PlaceId = 7, Day = new DateOnly(2099, 1, 2), QueuedAt = 50, Batch = 9 });
            db.Outbox.Add(new OutboxMessage
            {
                Kind = 5,
                Code = code,
                Phone = "+421900000001",
                Language = "sk",
                PlaceId = 7,
                Day = new DateOnly(2099, 1, 2),
                StartMinute = 600,
                CreatedAt = 50,
            });
        }
    }

    [Fact]
    public async Task The_reminders_and_their_sms_are_inserted_without_a_merge_into_the_memory_optimized_outbox()
    {
        var (sql, parameters) = await SaveAsync(o => SqlServerModel.Use(o, ConnectionString), RemindTwo);

        var tree = Parse(sql);
        Assert.Empty(SqlScripts.All<MergeStatement>(tree));
        var inserts = SqlScripts.All<InsertSpecification>(tree);
        Assert.Equal(["outbox", "outbox", "reminders"], inserts.Select(i => SqlScripts.NameOf(((NamedTableReference)i.Target).SchemaObject)));
        // The identity comes back straight from each insert: no OUTPUT INTO a table variable.
        Assert.All(inserts.Take(2), i => Assert.Null(i.OutputIntoClause));
        var codes = parameters.Where(p => p.Value as string is "ABCDE-FGHJK" or "BCDEF-GHJKL").ToList();
        Assert.Equal(4, codes.Count);
        Assert.All(codes, p =>
        {
            Assert.Equal(SqlDbType.VarChar, p.SqlDbType);
            Assert.Equal(16, p.Size);
        });
    }

    [Fact]
    public async Task Without_SQL_Servers_model_EF_Core_would_merge_into_the_outbox_and_send_codes_as_nvarchar()
    {
        // The control: what the flags and types in SqlServerModel are there to prevent.
        var (sql, parameters) = await SaveAsync(o => o.UseSqlServer(ConnectionString), RemindTwo);

        Assert.Contains(SqlScripts.All<MergeStatement>(Parse(sql)),
            m => SqlScripts.NameOf(((NamedTableReference)m.MergeSpecification.Target).SchemaObject) == "outbox");
        Assert.Contains(parameters, p => p.Value as string == "ABCDE-FGHJK" && p.SqlDbType == SqlDbType.NVarChar);
    }

    [Fact]
    public async Task A_waiting_list_join_inserts_its_entry_with_the_token_and_person_typed_as_their_varchar_columns()
    {
        var (sql, parameters) = await SaveAsync(o => SqlServerModel.Use(o, ConnectionString), db => db.Waitlist.Add(new WaitlistEntry
        {
            PlaceId = 7,
            FromDay = new DateOnly(2099, 1, 2),
            ToDay = new DateOnly(2099, 1, 4),
            PersonHash = "person-hash",
            Phone = "+421900000001",
            Name = "Jana",
            Language = "sk",
            Token = "0123456789abcdef",
            JoinedAt = 50,
            State = 1,
        }));

        var insert = Assert.Single(SqlScripts.All<InsertSpecification>(Parse(sql)));
        Assert.Equal("waitlist", SqlScripts.NameOf(((NamedTableReference)insert.Target).SchemaObject));
        // The identity is the database's: EF Core leaves the id out and reads it back from the insert.
        Assert.DoesNotContain("id", insert.Columns.Select(c => c.MultiPartIdentifier.Identifiers[^1].Value));
        Assert.Equal((SqlDbType.VarChar, 64), Typed(parameters, "0123456789abcdef"));
        Assert.Equal((SqlDbType.VarChar, 64), Typed(parameters, "person-hash"));
        Assert.Equal((SqlDbType.NVarChar, 100), Typed(parameters, "Jana"));
        Assert.Equal((SqlDbType.SmallInt, 0), Typed(parameters, (short)1));
    }

    [Fact]
    public async Task The_offer_steps_state_moves_are_single_SQL_Server_updates_of_the_entries_and_then_the_offers()
    {
        var options = new DbContextOptionsBuilder<SlotsDbContext>();
        SqlServerModel.Use(options, ConnectionString);
        var catcher = new Catcher();
        options.AddInterceptors(catcher);
        await using var db = new SlotsDbContext(options.Options);
        var ct = TestContext.Current.CancellationToken;

        await Assert.ThrowsAnyAsync<Exception>(() => EfWaitingListStore.ExpiringEntries(db, 4_000_000_000)
            .ExecuteUpdateAsync(w => w.SetProperty(x => x.State, (short)5).SetProperty(x => x.DecidedAt, 4_000_000_000), ct));
        var entries = Assert.Single(SqlScripts.All<UpdateSpecification>(Parse(catcher.Text!)));
        await Assert.ThrowsAnyAsync<Exception>(() => EfWaitingListStore.OpenOffersOf(db, 5, 4_000_000_000)
            .ExecuteUpdateAsync(o => o.SetProperty(x => x.State, (short)3).SetProperty(x => x.DecidedAt, 4_000_000_000), ct));
        var offers = Assert.Single(SqlScripts.All<UpdateSpecification>(Parse(catcher.Text!)));

        Assert.Equal(["waitlist", "waitlist_offers"], new[] { entries, offers }.Select(u => Target(u)));
        Assert.Empty(SqlScripts.All<MergeStatement>(Parse(catcher.Text!)));
        // The states compared as the smallint their column is, so the filtered indexes' predicates match.
        Assert.StartsWith("WHERE [W].[STATE] = CAST(2 AS SMALLINT) AND EXISTS", SqlScripts.Text(entries.WhereClause), StringComparison.Ordinal);
        Assert.StartsWith("WHERE [W].[STATE] = CAST(1 AS SMALLINT) AND EXISTS", SqlScripts.Text(offers.WhereClause), StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_idempotency_purge_is_one_SQL_Server_delete_of_the_memory_optimized_keys_by_their_bigint_time()
    {
        var options = new DbContextOptionsBuilder<SlotsDbContext>();
        SqlServerModel.Use(options, ConnectionString);
        var catcher = new Catcher();
        options.AddInterceptors(catcher);
        await using var db = new SlotsDbContext(options.Options);

        await Assert.ThrowsAnyAsync<Exception>(() => new EfIdempotencyPurge(db).PurgeAsync(DateTimeOffset.FromUnixTimeSeconds(4_000_000_000), TestContext.Current.CancellationToken));

        var delete = Assert.Single(SqlScripts.All<DeleteSpecification>(Parse(catcher.Text!)));
        Assert.Equal("idempotency", Target(delete.Target, delete.FromClause));
        Assert.Equal((SqlDbType.BigInt, 0), Typed(catcher.Parameters, 4_000_000_000L));
    }

    /// <summary>The table an UPDATE or DELETE writes: its target, or the FROM's table the target's alias names.</summary>
    private static string Target(UpdateSpecification update) => Target(update.Target, update.FromClause);

    private static string Target(TableReference written, FromClause? from)
    {
        var target = (NamedTableReference)written;
        var alias = target.SchemaObject.BaseIdentifier.Value;
        var table = from?.TableReferences.OfType<NamedTableReference>().FirstOrDefault(t => t.Alias?.Value == alias) ?? target;
        return SqlScripts.NameOf(table.SchemaObject);
    }

    private static (SqlDbType, int) Typed(List<SqlParameter> parameters, object value)
    {
        var parameter = Assert.Single(parameters, p => Equals(p.Value, value));
        return (parameter.SqlDbType, parameter.Size);
    }

    private static TSqlFragment Parse(string sql)
    {
        using var reader = new StringReader(sql);
        var tree = new TSql130Parser(initialQuotedIdentifiers: true).Parse(reader, out var errors);
        Assert.Empty(errors.Select(e => $"{e.Line}:{e.Column} {e.Message}"));
        return tree;
    }

    /// <summary>Runs SaveChanges with the connection's open suppressed; answers the first batch's text and parameters.</summary>
    private static async Task<(string Sql, List<SqlParameter> Parameters)> SaveAsync(
        Action<DbContextOptionsBuilder> provider, Action<SlotsDbContext> change)
    {
        var catcher = new Catcher();
        var options = new DbContextOptionsBuilder<SlotsDbContext>();
        provider(options);
        options.AddInterceptors(catcher);
        await using var db = new SlotsDbContext(options.Options);
        db.Database.AutoTransactionBehavior = AutoTransactionBehavior.Never;
        change(db);
        var error = await Assert.ThrowsAsync<DbUpdateException>(() => db.SaveChangesAsync(TestContext.Current.CancellationToken));
        Assert.IsType<Caught>(error.InnerException);
        return (catcher.Text!, catcher.Parameters);
    }

    private sealed class Caught : Exception;

    /// <summary>Keeps the connection closed and the first command's text and parameters, then stops the save.</summary>
    private sealed class Catcher : DbCommandInterceptor, IDbConnectionInterceptor
    {
        public string? Text { get; private set; }

        public List<SqlParameter> Parameters { get; } = [];

        public ValueTask<InterceptionResult> ConnectionOpeningAsync(DbConnection connection, ConnectionEventData eventData, InterceptionResult result,
            CancellationToken cancellationToken = default) => ValueTask.FromResult(InterceptionResult.Suppress());

        public override ValueTask<InterceptionResult<DbDataReader>> ReaderExecutingAsync(DbCommand command, CommandEventData eventData,
            InterceptionResult<DbDataReader> result, CancellationToken cancellationToken = default)
        {
            Text = command.CommandText;
            Parameters.AddRange(command.Parameters.Cast<SqlParameter>());
            throw new Caught();
        }

        public override ValueTask<InterceptionResult<int>> NonQueryExecutingAsync(DbCommand command, CommandEventData eventData,
            InterceptionResult<int> result, CancellationToken cancellationToken = default)
        {
            Text = command.CommandText;
            Parameters.AddRange(command.Parameters.Cast<SqlParameter>());
            throw new Caught();
        }
    }
}
