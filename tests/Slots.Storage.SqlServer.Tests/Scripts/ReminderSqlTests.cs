using Microsoft.SqlServer.TransactSql.ScriptDom;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// Day-before reminders' table on SQL Server as its parser reads it: the key and the day index. The
/// statements are the shared EF Core store's (EfReminderStore), held against this table by <see cref="EfModelMappingTests"/>.
/// </summary>
public sealed class ReminderSqlTests
{
    private static CreateTableStatement Table() =>
        Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", "reminders"))));

    [Fact]
    public void A_booking_is_reminded_once_per_start_it_holds()
    {
        var key = Assert.Single(Table().Definition.TableConstraints.OfType<UniqueConstraintDefinition>(), c => c.IsPrimaryKey);
        Assert.Equal(["code", "starts_at"], key.Columns.Select(c => c.Column.MultiPartIdentifier.Identifiers[^1].Value));
    }

    [Fact]
    public void Forgetting_past_days_reads_the_day_index()
    {
        Assert.Contains(Table().Definition.Indexes, i => i.Name.Value == "ix_reminders_day");
    }
}
