using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace Slots.Testing.Web;

/// <summary>
/// Keeps the error the host logged when it failed to start. The API's own entry point runs the host: a start refused
/// by its settings logs why, then disposes the host, and the test factory's start that comes after that finds only a
/// disposed container. This log lets <see cref="SlotsHost"/> rethrow the refusal itself.
/// </summary>
internal sealed class StartFailureLog : ILoggerProvider, ILogger
{
    private const string HostCategory = "Microsoft.Extensions.Hosting.Internal.Host";

    private Exception? _failure;

    public Exception? Failure => Volatile.Read(ref _failure);

    public ILogger CreateLogger(string categoryName) => categoryName == HostCategory ? this : NullLogger.Instance;

    public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

    public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Error;

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
    {
        if (logLevel >= LogLevel.Error && exception is not null)
        {
            Interlocked.CompareExchange(ref _failure, exception, null);
        }
    }

    // The host disposes its providers; this one outlives it so the failure can still be read.
    public void Dispose()
    {
    }
}
