using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Api.Http;
using Slots.Api.Reservations;
using Slots.Reservations;

namespace Slots.Api.Tests.Reservations;

/// <summary>The outcomes services, eligibility and two-dose bookings add each map to their own problem, never a 500.</summary>
public sealed class ServiceProblemTests
{
    private static readonly DateOnly Day = new(2026, 11, 27);

    private static IResult Booking(ReservationStatus status) =>
        ReservationProblems.Answer(new BookingAnswer(status), Day, new DefaultHttpContext().Response, TypedResults.Ok).Result;

    private static IResult Move(RescheduleStatus status) =>
        ReservationProblems.Answer(new RescheduleAnswer(status), Day, TypedResults.Ok).Result;

    public static TheoryData<ReservationStatus, string, int> BookingRefusals => new()
    {
        { ReservationStatus.UnknownService, "unknown-service", 404 },
        { ReservationStatus.NotEligible, "not-eligible", 403 },
        { ReservationStatus.SecondDoseFull, "second-dose-full", 409 },
    };

    public static TheoryData<RescheduleStatus, string, int> MoveRefusals => new()
    {
        { RescheduleStatus.PairFirstDoseFixed, "pair-first-dose-fixed", 409 },
        { RescheduleStatus.OutsideInterval, "second-dose-outside-interval", 422 },
    };

    [Theory]
    [MemberData(nameof(BookingRefusals))]
    public void A_booking_refused_for_its_service_answers_its_problem(ReservationStatus status, string code, int httpStatus) =>
        AssertProblem(Booking(status), code, httpStatus);

    [Theory]
    [MemberData(nameof(MoveRefusals))]
    public void A_move_of_a_pair_refused_answers_its_problem(RescheduleStatus status, string code, int httpStatus) =>
        AssertProblem(Move(status), code, httpStatus);

    [Fact]
    public void A_booking_that_names_no_service_at_a_place_with_several_is_a_validation_problem_naming_service()
    {
        var invalid = Assert.IsType<ValidationProblem>(Booking(ReservationStatus.ServiceRequired));

        Assert.Equal(StatusCodes.Status400BadRequest, invalid.StatusCode);
        Assert.Equal(["service"], invalid.ProblemDetails.Errors.Keys);
    }

    private static void AssertProblem(IResult result, string code, int httpStatus)
    {
        var problem = Assert.IsType<ProblemHttpResult>(result).ProblemDetails;
        Assert.Equal(httpStatus, problem.Status);
        Assert.Equal($"urn:slots:problem:{code}", problem.Type);
        Assert.Equal(code, problem.Extensions["code"]);
        Assert.Equal(httpStatus, ProblemTypes.Find(code)?.Status);
    }
}
