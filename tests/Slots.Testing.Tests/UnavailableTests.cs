using Xunit.Sdk;

namespace Slots.Testing.Tests;

/// <summary>A server that cannot start skips the test on a developer's machine and fails it under CI, saying why either way.</summary>
public sealed class UnavailableTests
{
    private const string Reason = "PostgreSQL's binaries were not found under /usr/lib/postgresql";

    [Fact]
    public void Under_CI_an_unavailable_server_fails_the_test_with_the_reason()
    {
        var failure = Assert.IsType<FailException>(Unavailable.Because(Reason, underCi: true));

        Assert.StartsWith(Reason, failure.Message, StringComparison.Ordinal);
        Assert.Contains("CI=true", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Outside_CI_an_unavailable_server_skips_the_test_with_the_reason()
    {
        var skip = Assert.IsType<SkipException>(Unavailable.Because(Reason, underCi: false));

        // xunit marks a dynamic skip by a prefix on the message; the reason follows it unchanged.
        Assert.EndsWith(Reason, skip.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("true", true)]
    [InlineData("TRUE", true)]
    [InlineData(" true\n", true)]
    [InlineData(null, false)]
    [InlineData("", false)]
    [InlineData("false", false)]
    [InlineData("0", false)]
    public void CI_is_the_variable_set_to_true(string? value, bool underCi) =>
        Assert.Equal(underCi, Unavailable.IsCi(value));

    [Fact]
    public async Task A_server_start_that_says_it_cannot_run_here_becomes_this_runs_skip_or_failure()
    {
        var thrown = await ThrownAsync(() => Unavailable.SkipOrFailAsync<int>(() => throw new RabbitMqUnavailableException(Reason)));

        Assert.IsType(Unavailable.UnderCi ? typeof(FailException) : typeof(SkipException), thrown);
        Assert.Contains(Reason, thrown.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Any_other_start_error_stays_what_it_is()
    {
        var bug = new InvalidOperationException("a bug in the fixture, not a missing server");

        var thrown = await ThrownAsync(() => Unavailable.SkipOrFailAsync<int>(() => throw bug));

        Assert.Same(bug, thrown);
    }

    // Not Record.ExceptionAsync: it passes a skip on, which would skip this test instead of letting it look.
    private static async Task<Exception?> ThrownAsync(Func<Task> act)
    {
        try
        {
            await act();
            return null;
        }
        catch (Exception ex)
        {
            return ex;
        }
    }
}
