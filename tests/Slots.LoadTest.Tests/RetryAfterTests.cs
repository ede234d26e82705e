using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Tests;

public sealed class RetryAfterTests
{
    private static readonly DateTimeOffset Now = new(2026, 11, 21, 12, 0, 0, TimeSpan.Zero);

    [Theory]
    [InlineData("1", 1)]
    [InlineData(" 10 ", 10)]
    [InlineData("0", 0)]
    public void Delay_seconds_are_read_as_seconds(string header, int seconds) =>
        Assert.Equal(TimeSpan.FromSeconds(seconds), RetryAfter.Parse(header, Now));

    [Fact]
    public void An_http_date_is_the_time_until_then() =>
        Assert.Equal(TimeSpan.FromSeconds(90), RetryAfter.Parse("Sat, 21 Nov 2026 12:01:30 GMT", Now));

    [Fact]
    public void A_date_in_the_past_means_now() =>
        Assert.Equal(TimeSpan.Zero, RetryAfter.Parse("Sat, 21 Nov 2026 11:00:00 GMT", Now));

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("soon")]
    [InlineData("-5")]
    [InlineData("1.5")]
    [InlineData("99999999999")]
    public void Unreadable_values_are_no_value(string? header) => Assert.Null(RetryAfter.Parse(header, Now));

    [Fact]
    public void The_server_delay_wins_over_backoff_and_jitter_stays_below_its_bound()
    {
        var random = new Random(1);
        for (var attempt = 1; attempt <= 50; attempt++)
        {
            var delay = RetryAfter.Delay(attempt, TimeSpan.FromSeconds(2), TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(8), TimeSpan.FromMilliseconds(300), random);
            Assert.InRange(delay, TimeSpan.FromSeconds(2), TimeSpan.FromMilliseconds(2299));
        }
    }

    [Fact]
    public void Without_a_server_delay_the_backoff_doubles_up_to_its_cap()
    {
        var random = new Random(1);
        TimeSpan At(int attempt) => RetryAfter.Delay(attempt, null, TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(8), TimeSpan.Zero, random);

        Assert.Equal(TimeSpan.FromMilliseconds(500), At(1));
        Assert.Equal(TimeSpan.FromMilliseconds(1000), At(2));
        Assert.Equal(TimeSpan.FromMilliseconds(4000), At(4));
        Assert.Equal(TimeSpan.FromSeconds(8), At(5));
        Assert.Equal(TimeSpan.FromSeconds(8), At(60));
    }

    [Fact]
    public void Jitter_spreads_a_crowd_told_the_same_delay()
    {
        var random = new Random(3);
        var delays = Enumerable.Range(0, 200)
            .Select(_ => RetryAfter.Delay(1, TimeSpan.FromSeconds(1), TimeSpan.Zero, TimeSpan.Zero, TimeSpan.FromSeconds(1), random))
            .ToList();

        Assert.True(delays.Distinct().Count() > 150, "jittered delays should rarely coincide");
        Assert.True(delays.Min() < TimeSpan.FromMilliseconds(1100) && delays.Max() > TimeSpan.FromMilliseconds(1900));
    }
}
