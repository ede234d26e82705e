using Bogus;

namespace Slots.Testing.Web;

public sealed record Person(string Name, string Phone, string NationalId);

/// <summary>Believable people from a fixed seed; every call gives a new person with a unique id and phone.</summary>
public static class People
{
    private static readonly Faker Faker = new("sk") { Random = new Randomizer(4242) };
    private static int _next;

    public static Person Next()
    {
        var n = Interlocked.Increment(ref _next);
        lock (Faker)
        {
            return new Person(Faker.Name.FullName(), $"+4219{n % 100_000_000:00000000}", $"{Faker.Random.Number(10, 99)}{n:00000000}");
        }
    }
}
