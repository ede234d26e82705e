using System.Net;

namespace Slots.Stack.Tests.Infrastructure;

/// <summary>What a crowd of bookings sent at once got back, as the admission tests judge it.</summary>
public sealed record CrowdAnswers(Attempt[] Admitted, Attempt[] TurnedAway)
{
    /// <summary>
    /// The bookings' last answers, asserted to be 201s and immediate 429 overloaded problems with Retry-After 1 s, some
    /// of each: no 503, no timeout, nobody waited long enough for one. A connection the loaded two-core machine drops
    /// before HAProxy accepts it has no answer at all and is not HAProxy's doing; up to 2 are tolerated and named.
    /// </summary>
    public static CrowdAnswers AdmittedOrTurnedAwayAtOnce(IEnumerable<Booking> bookings)
    {
        var all = bookings.Select(b => b.Final!).ToArray();
        var admitted = all.Where(a => a.Status == HttpStatusCode.Created).ToArray();
        var turnedAway = all.Where(a => a.Status == HttpStatusCode.TooManyRequests).ToArray();
        var other = all.Except(admitted).Except(turnedAway).ToArray();
        Assert.All(other, a => Assert.Null(a.Status));
        Assert.True(other.Length <= 2, $"{other.Length} requests got no answer at all");
        Assert.NotEmpty(admitted);
        Assert.NotEmpty(turnedAway);
        Assert.All(turnedAway, a =>
        {
            Assert.Equal("overloaded", a.Code);
            Assert.Equal("application/problem+json", a.ContentType);
            Assert.Equal(TimeSpan.FromSeconds(1), a.RetryAfter);
        });
        return new(admitted, turnedAway);
    }
}
