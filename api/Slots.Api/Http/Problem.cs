using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;

namespace Slots.Api.Http;

/// <summary>
/// Every error the API answers, built one way: RFC 9457 problem details with a stable type URI,
/// the status its <see cref="ProblemType"/> declares, and a machine-readable code.
/// </summary>
internal static class Problem
{
    public const string TypePrefix = "urn:slots:problem:";

    public static ProblemHttpResult Of(ProblemType type, string title, string? detail = null,
        IEnumerable<KeyValuePair<string, object?>>? extensions = null)
    {
        var problem = new ProblemDetails
        {
            Type = TypePrefix + type.Code,
            Title = title,
            Status = type.Status,
            Detail = detail,
        };
        problem.Extensions["code"] = type.Code;
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
        var type = problem.Status switch
        {
            StatusCodes.Status400BadRequest => ProblemTypes.BadRequest,
            StatusCodes.Status404NotFound => ProblemTypes.NotFound,
            StatusCodes.Status405MethodNotAllowed => ProblemTypes.MethodNotAllowed,
            StatusCodes.Status413PayloadTooLarge => ProblemTypes.BodyTooLarge,
            StatusCodes.Status415UnsupportedMediaType => ProblemTypes.UnsupportedMediaType,
            StatusCodes.Status431RequestHeaderFieldsTooLarge => ProblemTypes.HeadersTooLarge,
            _ => null,
        };
        if (type is not null)
        {
            problem.Type = TypePrefix + type.Code;
            problem.Extensions["code"] = type.Code;
        }
    }

    public static ValidationProblem Invalid(IDictionary<string, string[]> errors) =>
        TypedResults.ValidationProblem(
            errors,
            detail: "One or more fields are missing or invalid; see errors.",
            type: TypePrefix + ProblemTypes.ValidationFailed.Code,
            title: "The request is not valid.",
            extensions: [new("code", ProblemTypes.ValidationFailed.Code)]);

    public static ValidationProblem Invalid(string field, string message) =>
        Invalid(new Dictionary<string, string[]> { [field] = [message] });

    public static ProblemHttpResult UnknownPlace() => Of(ProblemTypes.UnknownPlace, "There is no such place.");

    public static ProblemHttpResult UnknownSlot() => Of(ProblemTypes.UnknownSlot, "There is no such slot at this place on this day.");

    public static ProblemHttpResult SlotStarted() => Of(ProblemTypes.SlotStarted, "This slot has already started.");

    public static ProblemHttpResult ReservationNotFound() =>
        Of(ProblemTypes.ReservationNotFound, "No reservation with this code belongs to this phone number or national id.");

    public static ProblemHttpResult ReservationStarted() =>
        Of(ProblemTypes.ReservationStarted, "The reserved slot has already started; it can no longer be changed.");
}
