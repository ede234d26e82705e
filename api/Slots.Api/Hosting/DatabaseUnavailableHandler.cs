using System.Data.Common;
using Microsoft.AspNetCore.Diagnostics;

namespace Slots.Api.Hosting;

/// <summary>
/// The last line for exceptions: a database that cannot be reached is 503 with Retry-After (the
/// client may retry with the same Idempotency-Key); anything else is a bug, answered 500 without
/// details and logged.
/// </summary>
internal sealed partial class DatabaseUnavailableHandler(ApiMetrics metrics, ILogger<DatabaseUnavailableHandler> logger) : IExceptionHandler
{
    public async ValueTask<bool> TryHandleAsync(HttpContext http, Exception exception, CancellationToken ct)
    {
        if (exception is BadHttpRequestException bad)
        {
            // The framework refused the request (a value its binder cannot read, thrown in Development;
            // a body past Kestrel's limit): the client's mistake, not a bug of ours.
            await (bad.StatusCode switch
            {
                StatusCodes.Status413PayloadTooLarge => Problem.Of(ProblemTypes.BodyTooLarge, "The body is too large."),
                StatusCodes.Status431RequestHeaderFieldsTooLarge => Problem.Of(ProblemTypes.HeadersTooLarge, "The request headers are too large."),
                _ => Problem.Of(ProblemTypes.BadRequest, "The request could not be read."),
            }).ExecuteAsync(http);
            return true;
        }
        if (exception is DbException or TimeoutException || exception.InnerException is DbException || DisposedInsideTheDriver(exception))
        {
            LogDatabaseUnavailable(logger, exception.GetType().Name);
            metrics.Shed(StatusCodes.Status503ServiceUnavailable, ProblemTypes.DatabaseUnavailable.Code);
            http.Response.Headers.RetryAfter = "2";
            await Problem.Of(ProblemTypes.DatabaseUnavailable,
                "The booking database is not answering right now.",
                "Nothing was booked twice; retry after the seconds in Retry-After with the same Idempotency-Key.").ExecuteAsync(http);
            return true;
        }
        // Handled here, the framework no longer logs it: this line is the bug's only trace.
        LogBug(logger, exception, http.Request.Method, http.GetEndpoint()?.DisplayName);
        await Problem.Of(ProblemTypes.InternalError, "Something went wrong on our side.").ExecuteAsync(http);
        return true;
    }

    /// <summary>
    /// A connection the driver broke and disposed while a command still used it (Npgsql, when the
    /// PostgreSQL primary dies during a failover): the database went away, not a bug of ours.
    /// </summary>
    internal static bool DisposedInsideTheDriver(Exception exception) =>
        exception is ObjectDisposedException
        && new System.Diagnostics.StackTrace(exception, false).GetFrames().Any(f =>
            f.GetMethod()?.DeclaringType?.Namespace is { } ns && ns.StartsWith("Npgsql", StringComparison.Ordinal));

    // The exception type only: database messages can quote the statement's values.
    [LoggerMessage(EventId = 1001, Level = LogLevel.Warning, Message = "Database unavailable: {ExceptionType}")]
    private static partial void LogDatabaseUnavailable(ILogger logger, string exceptionType);

    [LoggerMessage(EventId = 1002, Level = LogLevel.Error, Message = "Unhandled exception in {Method} {Endpoint}")]
    private static partial void LogBug(ILogger logger, Exception exception, string method, string? endpoint);
}
