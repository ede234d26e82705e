using System.Diagnostics;
using Microsoft.AspNetCore.Http.HttpResults;

namespace Slots.Api.Reservations;

/// <summary>
/// Times and counts each reservation request in one place, around its handler: the outcome is read
/// from the typed result (the problem's code, or the operation's success word), so the handlers
/// and ReservationProblems stay free of metrics calls.
/// </summary>
internal static class ReservationMetrics
{
    public static RouteHandlerBuilder WithReservationMetrics(this RouteHandlerBuilder endpoint, string operation, string success) =>
        endpoint.WithMetadata(new ReservationOperation(operation)).AddEndpointFilter(async (context, next) =>
        {
            var metrics = context.HttpContext.RequestServices.GetRequiredService<ApiMetrics>();
            var started = Stopwatch.GetTimestamp();
            var outcome = "failed"; // an exception: the exception handler answers (503 database-unavailable, or 500)
            try
            {
                var result = await next(context);
                outcome = Outcome(result, context.HttpContext.Response, success);
                return result;
            }
            finally
            {
                metrics.Handled(operation, outcome, Stopwatch.GetElapsedTime(started));
            }
        });

    internal static string Outcome(object? result, HttpResponse response, string success)
    {
        while (result is INestedHttpResult nested)
        {
            result = nested.Result;
        }
        if (response.Headers.ContainsKey("Idempotent-Replayed"))
        {
            return "replayed";
        }
        return result switch
        {
            ProblemHttpResult problem => problem.ProblemDetails.Extensions.TryGetValue("code", out var code) && code is string text ? text : "problem",
            ValidationProblem => "validation-failed",
            IStatusCodeHttpResult { StatusCode: >= 200 and < 300 } => success,
            _ => "other",
        };
    }
}
