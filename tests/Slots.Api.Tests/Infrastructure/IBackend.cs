namespace Slots.Api.Tests.Infrastructure;

/// <summary>A storage backend the contract suite runs against.</summary>
public interface IBackend : IAsyncDisposable
{
    string Name { get; }

    /// <summary>Configuration overrides for a host on a fresh, empty database; null when the backend is unavailable.</summary>
    Task<IReadOnlyDictionary<string, string?>?> CreateDatabaseAsync(string name, CancellationToken ct);

    /// <summary>Why the backend is unavailable (tests skip with this reason); null when it is.</summary>
    string? SkipReason { get; }
}
