using System.Diagnostics.CodeAnalysis;
using Xunit.Sdk;

namespace Slots.Testing;

/// <summary>
/// What a test does when a server or tool it needs cannot start here (PostgreSQL, RabbitMQ, HAProxy,
/// etcd and Patroni): on a developer's machine it is skipped with the reason; under CI (the variable
/// CI is "true": GitHub Actions and .ci/run set it) it fails with the reason, because there a skip
/// would read green over a broken start. SQL Server, which no machine here has, skips without coming
/// through here (SqlServerDatabase, SqlServerBackend).
/// </summary>
public static class Unavailable
{
    public const string CiVariable = "CI";

    /// <summary>Whether this run is CI's, read once: a test that changed it mid-run would change every other test's answer.</summary>
    public static bool UnderCi { get; } = IsCi(Environment.GetEnvironmentVariable(CiVariable));

    public static bool IsCi(string? value) => string.Equals(value?.Trim(), "true", StringComparison.OrdinalIgnoreCase);

    /// <summary>Skips the test with <paramref name="reason"/>, or under CI fails it with that reason.</summary>
    [DoesNotReturn]
    public static void SkipOrFail(string reason) => throw Because(reason);

    /// <summary>The exception that skips the test (or under CI fails it), for `throw` where the compiler must see one.</summary>
    public static Exception Because(string reason) => Because(reason, UnderCi);

    /// <summary>Under CI a failure naming the reason and the rule; otherwise xunit's dynamic skip with the reason.</summary>
    public static Exception Because(string reason, bool underCi) => underCi
        ? FailException.ForFailure($"{reason} ({CiVariable}=true: a server or tool that cannot start fails the test instead of skipping it)")
        : SkipException.ForSkip(reason);

    /// <summary>What <paramref name="start"/> starts (a server, a node, a cluster), or the test skipped, under CI failed, with the reason it could not.</summary>
    public static async Task<T> SkipOrFailAsync<T>(Func<Task<T>> start)
    {
        try
        {
            return await start();
        }
        catch (ServerUnavailableException ex)
        {
            throw Because(ex.Message);
        }
    }
}

/// <summary>A server cannot run on this machine; the message says why.</summary>
public class ServerUnavailableException(string message) : Exception(message);
