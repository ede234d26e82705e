using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;

namespace Slots.Api.Problems;

/// <summary>
/// Every error the API answers, in one place: RFC 9457 problem details with a stable type URI
/// and a machine-readable code. docs/problems.md describes each code.
/// </summary>
internal static class Problem
{
    public const string TypePrefix = "urn:slots:problem:";

    public static ProblemHttpResult Of(int status, string code, string title, string? detail = null,
        IEnumerable<KeyValuePair<string, object?>>? extensions = null)
    {
        var problem = new ProblemDetails
        {
            Type = TypePrefix + code,
            Title = title,
            Status = status,
            Detail = detail,
        };
        problem.Extensions["code"] = code;
        foreach (var (key, value) in extensions ?? [])
        {
            problem.Extensions[key] = value;
        }
        return TypedResults.Problem(problem);
    }

    /// <summary>
    /// Problems the framework writes itself (no endpoint for the path, a method or content type the
    /// endpoint does not take, a request it cannot read) get a code and type like ours, so a client
    /// can rely on `code` in every problem.
    /// </summary>
    public static void WithCode(ProblemDetailsContext context)
    {
        var problem = context.ProblemDetails;
        if (problem.Extensions.ContainsKey("code"))
        {
            return;
        }
        var code = problem.Status switch
        {
            StatusCodes.Status400BadRequest => "bad-request",
            StatusCodes.Status404NotFound => "not-found",
            StatusCodes.Status405MethodNotAllowed => "method-not-allowed",
            StatusCodes.Status413PayloadTooLarge => "body-too-large",
            StatusCodes.Status415UnsupportedMediaType => "unsupported-media-type",
            _ => null,
        };
        if (code is not null)
        {
            problem.Type = TypePrefix + code;
            problem.Extensions["code"] = code;
        }
    }

    public static ValidationProblem Invalid(IDictionary<string, string[]> errors) =>
        TypedResults.ValidationProblem(
            errors,
            detail: "One or more fields are missing or invalid; see errors.",
            type: TypePrefix + "validation-failed",
            title: "The request is not valid.",
            extensions: [new("code", "validation-failed")]);

    public static ValidationProblem Invalid(string field, string message) =>
        Invalid(new Dictionary<string, string[]> { [field] = [message] });

    public static ProblemHttpResult UnknownPlace() =>
        Of(StatusCodes.Status404NotFound, "unknown-place", "There is no such place.");

    public static ProblemHttpResult UnknownSlot() =>
        Of(StatusCodes.Status404NotFound, "unknown-slot", "There is no such slot at this place on this day.");

    public static ProblemHttpResult SlotStarted() =>
        Of(StatusCodes.Status409Conflict, "slot-started", "This slot has already started.");

    public static ProblemHttpResult ReservationNotFound() =>
        Of(StatusCodes.Status404NotFound, "reservation-not-found",
            "No reservation with this code belongs to this phone number or national id.");

    public static ProblemHttpResult ReservationStarted() =>
        Of(StatusCodes.Status409Conflict, "reservation-started", "The reserved slot has already started; it can no longer be changed.");
}
