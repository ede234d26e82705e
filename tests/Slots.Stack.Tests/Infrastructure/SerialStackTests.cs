namespace Slots.Stack.Tests.Infrastructure;

/// <summary>
/// Every stack test in one collection: they measure timings and shed load, so they run one at a
/// time, and the ones that break nothing share one pair of API instances.
/// </summary>
[CollectionDefinition(Name)]
public sealed class SerialStackTests : ICollectionFixture<SharedApis>
{
    public const string Name = "stack";
}
