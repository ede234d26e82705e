using System.Text.RegularExpressions;
using Slots.OpenApi.Tests.Document;

namespace Slots.OpenApi.Tests;

/// <summary>The pattern sampler behind the schema-driven requests.</summary>
public sealed class PatternStringsTests
{
    // The document's phone pattern: its length check is a lookahead.
    private const string Phone = @"^(?=.{1,32}$)[ ()./-]*(\+[ ()./-]*[1-9]([ ()./-]*[0-9]){7,14}|0[ ()./-]*0[ ()./-]*[1-9]([ ()./-]*[0-9]){7,14}|0[ ()./-]*[1-9]([ ()./-]*[0-9]){4,11})[ ()./-]*$";

    // Regression: a pattern with a lookahead gave no sample, so a request meant to be valid carried a
    // placeholder phone and was refused for it, hiding the field a test had broken on purpose.
    [Fact]
    public void A_pattern_with_a_lookahead_gets_samples_that_match_it()
    {
        for (var seed = 0; seed < 50; seed++)
        {
            var sample = PatternStrings.Sample(Phone, new Random(seed), 0, 32);

            Assert.NotNull(sample);
            Assert.Matches(new Regex(Phone), sample);
        }
    }
}
