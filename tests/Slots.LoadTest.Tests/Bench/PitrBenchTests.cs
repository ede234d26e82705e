using Slots.LoadTest.Bench;

namespace Slots.LoadTest.Tests.Bench;

public sealed class PitrBenchTests
{
    [Fact]
    public void Without_options_5_1_million_seats_are_seeded_100_a_slot()
    {
        var options = PitrOptions.From(new Args([]), [])!;

        Assert.Equal(100, options.PerSlot);
        Assert.Equal(5_100_000, options.Seeded);
    }

    [Theory]
    [InlineData(1, 1, 51_000)]
    [InlineData(51_000, 1, 51_000)]
    [InlineData(51_001, 2, 102_000)]
    public void The_seats_asked_for_are_rounded_up_to_whole_seats_a_slot(int seats, int perSlot, long seeded)
    {
        var options = PitrOptions.From(new Args(["--seats", seats.ToString(System.Globalization.CultureInfo.InvariantCulture)]), [])!;

        Assert.Equal(perSlot, options.PerSlot);
        Assert.Equal(seeded, options.Seeded);
    }

    [Fact]
    public void An_unknown_option_is_refused()
    {
        var errors = new List<string>();

        Assert.Null(PitrOptions.From(new Args(["--seat", "10"]), errors));
        Assert.Contains(errors, e => e.Contains("--seat", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("000000010000000000000007", "000000010000000000000007", true)]
    [InlineData("000000010000000000000008", "000000010000000000000007", true)]
    [InlineData("00000001000000000000000A", "000000010000000000000009", true)]
    [InlineData("000000010000000000000006", "000000010000000000000007", false)]
    // A commit on the restored cluster's new timeline is not archived by a segment of the old one.
    [InlineData("000000010000000000000009", "000000020000000000000007", false)]
    [InlineData(null, "000000010000000000000001", false)]
    public void A_commit_is_in_the_repository_once_its_segment_or_a_later_one_is_archived(string? lastArchived, string walFile, bool archived) =>
        Assert.Equal(archived, PitrOptions.Archived(lastArchived, walFile));

    [Fact]
    public void A_duration_is_printed_in_seconds_with_one_decimal() =>
        Assert.Equal("30.3", PitrOptions.Took(TimeSpan.FromMilliseconds(30_260)));
}
