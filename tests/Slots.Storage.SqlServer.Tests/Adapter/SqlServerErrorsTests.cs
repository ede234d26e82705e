using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer.Tests.Adapter;

public sealed class SqlServerErrorsTests
{
    [Theory]
    [InlineData(41302)]
    [InlineData(41305)]
    [InlineData(41325)]
    [InlineData(41301)]
    [InlineData(41839)]
    [InlineData(41823)]
    [InlineData(41840)]
    [InlineData(2627)]
    public void NumberOf_reads_the_number_of_a_real_SqlException(int number) =>
        Assert.Equal(number, SqlServerErrors.NumberOf(SqlExceptions.With(number)));

    [Fact]
    public void NumberOf_finds_the_conflict_behind_a_generic_first_error() =>
        Assert.Equal(41302, SqlServerErrors.NumberOf(SqlExceptions.With(3998, 41302)));

    [Fact]
    public void NumberOf_falls_back_to_the_first_error() =>
        Assert.Equal(547, SqlServerErrors.NumberOf(SqlExceptions.With(547, 3621)));

    [Fact]
    public void NumberOf_is_null_for_other_exceptions() =>
        Assert.Null(SqlServerErrors.NumberOf(new InvalidOperationException()));

    [Fact]
    public async Task The_adapter_policy_retries_a_real_SqlException_41302()
    {
        var calls = 0;
        var policy = new SqlServerRetryPolicy(new SqlServerRetryOptions(), SqlServerErrors.NumberOf, (_, _) => Task.CompletedTask);

        var answer = await policy.ExecuteAsync(_ => ++calls == 1 ? throw SqlExceptions.With(41302) : ValueTask.FromResult(7),
            SqlServerErrors.Conflicts, () => 0, TestContext.Current.CancellationToken);

        Assert.Equal(7, answer);
        Assert.Equal(2, calls);
    }
}
