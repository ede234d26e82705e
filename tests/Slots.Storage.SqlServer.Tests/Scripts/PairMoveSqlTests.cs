using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Reservations;
using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// A pair's second dose moves the person's one-booking row, which is under the pair's first code
/// (issue 41 item 3), as slots_reschedule does on PostgreSQL and the SQLite hot path does. The
/// native dbo.reschedule cannot read the disk table dose_pairs, so the caller names the row's code
/// (@holder_code); the interpreted dbo.cold_reschedule takes the same parameter, so both moves read alike.
/// </summary>
public sealed class PairMoveSqlTests
{
    private static readonly ContactProof Proof = new("+421900000001", null);
    private static readonly SlotKey Target = new(7, new DateOnly(2026, 12, 30), 480);

    [Theory]
    [InlineData("reschedule")]
    [InlineData("cold_reschedule")]
    public void A_move_sets_the_end_of_the_person_row_its_holder_code_names(string proc)
    {
        var tree = SqlScripts.Tree(SqlScripts.FileOf("proc", proc));

        var persons = SqlScripts.All<UpdateSpecification>(tree)
            .Where(u => u.Target is NamedTableReference named && SqlScripts.NameOf(named.SchemaObject) == "active_persons").ToList();

        var update = Assert.Single(persons);
        Assert.Equal("WHERE CODE = @HOLDER_CODE", SqlScripts.Text(update.WhereClause));
    }

    [Fact]
    public void The_commands_pass_the_pair_s_first_code_as_the_holder_and_a_single_booking_s_own_code()
    {
        var now = DateTimeOffset.FromUnixTimeSeconds(1_800_000_000);
        var second = new RescheduleCommand("SECND-DOSE2", Proof, Target, now, Holder: "FIRST-DOSE1");
        var single = new RescheduleCommand("SINGL-BOOK1", Proof, Target, now);

        foreach (var command in new Func<RescheduleCommand, Microsoft.Data.SqlClient.SqlCommand>[] { SqlServerCommands.Reschedule, SqlServerCommands.ColdReschedule })
        {
            Assert.Equal("FIRST-DOSE1", command(second).Parameters["@holder_code"].Value);
            Assert.Equal("SINGL-BOOK1", command(single).Parameters["@holder_code"].Value);
        }
    }
}
