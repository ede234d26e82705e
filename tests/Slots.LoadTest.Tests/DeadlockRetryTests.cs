using System.Data.Common;
using Slots.LoadTest.Data;

namespace Slots.LoadTest.Tests;

/// <summary>
/// The benchmark's reset against a running stack met the stack's own jobs on the same tables and was chosen as a
/// deadlock's victim (`./slots bench --stack --quick --split-cpus` stopped there): a rolled-back victim is run again.
/// </summary>
public sealed class DeadlockRetryTests
{
    [Fact]
    public async Task A_deadlock_victim_is_run_again_and_its_second_answer_returned()
    {
        var runs = 0;

        var answer = await Database.AgainOnDeadlockAsync(() => ++runs == 1 ? throw new Refused("40P01") : Task.FromResult(runs));

        Assert.Equal(2, answer);
    }

    [Fact]
    public async Task Another_refusal_is_not_run_again()
    {
        var runs = 0;

        await Assert.ThrowsAsync<Refused>(() => Database.AgainOnDeadlockAsync<int>(() => { runs++; throw new Refused("23505"); }));

        Assert.Equal(1, runs);
    }

    [Fact]
    public async Task Deadlocks_every_time_give_up_after_the_tries()
    {
        var runs = 0;

        await Assert.ThrowsAsync<Refused>(() => Database.AgainOnDeadlockAsync<int>(() => { runs++; throw new Refused("40P01"); }, tries: 3));

        Assert.Equal(3, runs);
    }

    private sealed class Refused(string state) : DbException("refused")
    {
        public override string SqlState => state;
    }
}
