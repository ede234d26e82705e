using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// A hot seat's state in columns (issue 38): code is a booking's code or NULL; hold and offer_id say
/// that the waiting list holds the seat back, and for which offer. A fresh database gets the columns
/// from sql/005, an older one from the guarded ALTER of sql/100, which the migrator applies before
/// any proc that reads them compiles again.
/// </summary>
public sealed class SeatHoldSqlTests
{
    private const string Alter = "100_alter_hot_seats_hold.sql";

    private static string Columns(IEnumerable<ColumnDefinition> columns) =>
        string.Join(", ", columns.Select(c => $"{c.ColumnIdentifier.Value} {SqlScripts.Text(c.DataType)}"
            + (c.Constraints.OfType<NullableConstraintDefinition>().Single().Nullable ? " NULL" : " NOT NULL")
            + (c.DefaultConstraint is { } d ? $" DEFAULT {SqlScripts.Text(d.Expression)}" : "")));

    private static IEnumerable<(string Where, TSqlFragment Tree)> EveryStatement() =>
        SqlScripts.Files().Select(f => Path.GetFileName(f)!).Where(f => f != Alter).Select(f => (f, SqlScripts.Tree(f)));

    private static bool IsHotSeats(TableReference target) =>
        target is NamedTableReference named && SqlScripts.NameOf(named.SchemaObject) is "hot_seats" or "s";

    [Fact]
    public void A_fresh_database_creates_the_seats_with_their_hold_and_offer_columns()
    {
        var table = Assert.Single(SqlScripts.All<CreateTableStatement>(SqlScripts.Tree(SqlScripts.FileOf("table", "hot_seats"))));

        Assert.Equal("hold SMALLINT NOT NULL DEFAULT (0), offer_id BIGINT NULL",
            Columns(table.Definition.ColumnDefinitions.Where(c => c.ColumnIdentifier.Value is "hold" or "offer_id")));
    }

    [Fact]
    public void An_older_database_gets_the_same_columns_from_one_guarded_ALTER_and_its_old_holds_leave_the_code_column()
    {
        var tree = SqlScripts.Tree(Alter);

        var guard = Assert.Single(SqlScripts.All<IfStatement>(tree));
        Assert.Equal("COL_LENGTH(N'DBO.HOT_SEATS', N'HOLD') IS NULL", SqlScripts.Text(guard.Predicate));
        // Both columns in one statement: SQL Server rebuilds a memory-optimized table once per ALTER.
        var add = Assert.IsType<AlterTableAddTableElementStatement>(guard.ThenStatement);
        Assert.Equal("hot_seats", SqlScripts.NameOf(add.SchemaObjectName));
        Assert.Equal("hold SMALLINT NOT NULL DEFAULT (0), offer_id BIGINT NULL", Columns(add.Definition.ColumnDefinitions));
        var moves = SqlScripts.All<UpdateSpecification>(tree);
        Assert.Equal(["WHERE CODE LIKE '~H%'", "WHERE CODE = '~W'"], moves.Select(u => SqlScripts.Text(u.WhereClause)));
        Assert.All(moves, u => Assert.Contains("CODE = NULL", u.SetClauses.Select(SqlScripts.Text)));
        Assert.All(moves, u => Assert.Contains("HOLD = 1", u.SetClauses.Select(SqlScripts.Text)));
    }

    [Fact]
    public void No_statement_writes_anything_but_a_bookings_code_or_null_into_a_seats_code()
    {
        foreach (var (where, tree) in EveryStatement())
        {
            var codes = SqlScripts.All<UpdateSpecification>(tree).Where(u => IsHotSeats(u.Target))
                .SelectMany(u => u.SetClauses.OfType<AssignmentSetClause>())
                .Where(c => c.Column?.MultiPartIdentifier.Identifiers[^1].Value.Equals("code", StringComparison.OrdinalIgnoreCase) == true);
            Assert.All(codes, c => Assert.False(c.NewValue is StringLiteral or BinaryExpression, $"{where}: {SqlScripts.Text(c)}"));
        }
    }

    [Theory]
    [InlineData("reserve")]
    [InlineData("reschedule")]
    public void A_native_proc_takes_only_a_seat_with_no_code_and_no_hold(string name)
    {
        var tree = SqlScripts.Tree(SqlScripts.FileOf("proc", name));

        var free = SqlScripts.All<WhereClause>(tree).Select(SqlScripts.Text)
            .Where(w => System.Text.RegularExpressions.Regex.IsMatch(w, @"(?<![@\w])CODE IS NULL")).ToList();
        // The two scans (from the hinted seat on, then below it) and the claim's own guard.
        Assert.Equal(3, free.Count);
        Assert.All(free, t => Assert.EndsWith("AND HOLD = 0 AND CODE IS NULL", t, StringComparison.Ordinal));
    }

    [Fact]
    public void Availability_counts_a_held_seat_as_not_free()
    {
        var text = SqlScripts.Text(SqlScripts.Tree(SqlScripts.FileOf("proc", "availability")));

        Assert.Contains("COUNT(*) - COUNT(CODE) - SUM(HOLD) AS FREE", text, StringComparison.Ordinal);
    }

    [Fact]
    public void An_older_database_adds_the_columns_before_any_proc_that_reads_them_compiles_again()
    {
        var scripts = SqlServerMigrator.Scripts();
        var recorded = SqlServerMigrator.Plan(scripts, new Dictionary<string, string?>())
            .Where(s => s.Version != Alter)
            .ToDictionary(s => s.Version, s => (string?)(s.Version == "013_proc_reserve.sql" ? "the body before the hold" : s.Checksum));

        var plan = SqlServerMigrator.Plan(scripts, recorded).Where(s => s.Run).Select(s => s.Version).ToList();

        Assert.Equal(Alter, plan[0]);
        Assert.Contains("013_proc_reserve.sql", plan);
        Assert.Contains("017_proc_availability.sql", plan);
        Assert.Contains("082_proc_waitlist_claim.sql", plan);
    }
}
