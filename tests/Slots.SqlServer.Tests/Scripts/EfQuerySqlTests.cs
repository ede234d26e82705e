using Microsoft.EntityFrameworkCore;
using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Storage.Ef;
using Slots.Storage.Ef.Reminders;
using Slots.Storage.SqlServer.Ef;

namespace Slots.SqlServer.Tests.Scripts;

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
    private static List<string> Tables(IQueryable query)
    {
        var sql = query.ToQueryString();
        using var reader = new StringReader(sql);
        var tree = new TSql130Parser(initialQuotedIdentifiers: true).Parse(reader, out var errors);
        Assert.Empty(errors.Select(e => $"{e.Line}:{e.Column} {e.Message}"));
        return [.. SqlScripts.All<NamedTableReference>(tree).Select(t => SqlScripts.NameOf(t.SchemaObject)).Distinct()];
    }

    [Fact]
    public void The_reminders_due_read_the_hot_seats_their_bookings_and_the_reminders_in_one_SQL_Server_query()
    {
        using var db = Context();

        var tables = Tables(EfReminderStore.Due(db, 7, new DateOnly(2099, 1, 2), 4_000_000_000).Take(500));

        Assert.Equal(["hot_reservations", "hot_seats", "reminders"], tables.Order(StringComparer.Ordinal));
        Assert.All(tables, t => Assert.Contains(t, SqlScripts.HotTables.Concat(SqlScripts.DiskTables)));
    }
}
