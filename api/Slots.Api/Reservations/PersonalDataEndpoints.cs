using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.Extensions.Options;
using Slots.Places;
using Slots.Reservations;
using Slots.Retention;
using Slots.Sms;

namespace Slots.Api.Reservations;

/// <summary>
/// A person's access to what is kept about them and its erasure, proven as the look-up is: the
/// booking code in the path, the phone or national id in a header, the same per-code guessing limit.
/// </summary>
internal static class PersonalDataEndpoints
{
    public static IEndpointRouteBuilder MapPersonalData(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/reservations/{code}/personal-data")
            .WithTags("Reservations")
            .PersonalData()
            .RequireRateLimiting(RateLimits.Writes)
            .RequireConcurrencyLimit()
            .ContactProof()
            .Problems([.. ProblemTypes.Shedding, ProblemTypes.ValidationFailed])
            .Problems(ProblemTypes.WrongProofLimit, ProblemTypes.ReservationNotFound);
        group.MapGet("/", Read).WithName("ReadPersonalData").RequireRateLimiting(RateLimits.Reads)
            .WithSummary("See what is kept about the person")
            .WithDescription("Every booking and waiting-list entry made with the national id of the booking's owner, the SMS sent or "
                + "queued to them with their texts, and the reminders recorded. Erased data is gone: once erased, this answers 404.");
        group.MapDelete("/", Erase).WithName("ErasePersonalData")
            .WithSummary("Erase what is kept about the person")
            .WithDescription("Cancels the person's bookings still ahead first, as DELETE /api/reservations/{code} does (the seat comes back, "
                + "the cancellation SMS is sent), leaves their waiting lists, then erases their name, phone and national id's hash "
                + "everywhere; counts stay. A queued SMS keeps its phone until sent. Afterwards the code and proof find nothing (404).");
        return app;
    }

    public static async Task<Results<Ok<PersonalDataDto>, ProblemHttpResult, ValidationProblem>> Read(
        string code, HttpRequest request, PersonalDataRequests personalData, ProofGate gate, PlaceDirectory places,
        IOptions<SmsOptions> sms, CancellationToken ct)
    {
        var pass = await gate.PassAsync(code, request, new Validation(), ct);
        if (pass.Invalid is { } invalid)
        {
            return invalid;
        }
        if (pass.Refused is { } refused)
        {
            return refused;
        }
        if (await personalData.ReadAsync(pass.Code, pass.Proof, ct) is not { } held)
        {
            await gate.MissedAsync(pass.Code, ct);
            return Problem.ReservationNotFound();
        }
        return TypedResults.Ok(await ToDtoAsync(held, places, sms.Value.PublicUrl, ct));
    }

    public static async Task<Results<NoContent, ProblemHttpResult, ValidationProblem>> Erase(
        string code, HttpRequest request, PersonalDataRequests personalData, ProofGate gate, CancellationToken ct)
    {
        var pass = await gate.PassAsync(code, request, new Validation(), ct);
        if (pass.Invalid is { } invalid)
        {
            return invalid;
        }
        if (pass.Refused is { } refused)
        {
            return refused;
        }
        // Not the caller's token: once begun, the cancel and the erasure finish even if the client has gone.
        if (await personalData.EraseAsync(pass.Code, pass.Proof, CancellationToken.None) is null)
        {
            await gate.MissedAsync(pass.Code, ct);
            return Problem.ReservationNotFound();
        }
        return TypedResults.NoContent();
    }

    private static async Task<PersonalDataDto> ToDtoAsync(StoredPersonalData held, PlaceDirectory places, Uri site, CancellationToken ct)
    {
        var names = new Dictionary<int, string>();
        async Task<string> PlaceName(int id)
        {
            if (!names.TryGetValue(id, out var name))
            {
                name = names[id] = (await places.FindAsync(id, ct))?.Name ?? $"#{id}";
            }
            return name;
        }
        var bookings = new List<StoredBookingDto>();
        foreach (var b in held.Bookings)
        {
            bookings.Add(new(b.Code, b.Slot.PlaceId, await PlaceName(b.Slot.PlaceId), Formats.Day(b.Slot.Day), Formats.Time(b.Slot.StartMinute),
                b.Name, b.Phone, b.Language, b.Cancelled ? StoredBookingDto.Cancelled : StoredBookingDto.Booked, b.CreatedAt, b.Dose));
        }
        var entries = new List<StoredEntryDto>();
        foreach (var e in held.WaitingList)
        {
            entries.Add(new(e.PlaceId, await PlaceName(e.PlaceId), Formats.Day(e.From), Formats.Day(e.To), e.Name, e.Phone, e.Language,
                e.State.ToString().ToLowerInvariant(), e.JoinedAt));
        }
        var texts = new List<StoredSmsDto>();
        foreach (var s in held.Sms)
        {
            var message = SmsEvent.From(s.Kind, s.Id, s.Code, s.Phone, s.Language, await PlaceName(s.PlaceId), s.Day,
                TimeOnly.FromTimeSpan(TimeSpan.FromMinutes(s.StartMinute)), s.PlaceId, s.Note);
            texts.Add(new(s.Code, s.Phone, SmsTemplates.Render(message, site), s.Sent ? StoredSmsDto.Sent : StoredSmsDto.Queued, s.QueuedAt, s.SentAt));
        }
        var reminders = held.Reminders.Select(r => new StoredReminderDto(r.Code, Formats.Day(r.Day), r.QueuedAt)).ToArray();
        return new PersonalDataDto([.. bookings], [.. entries], [.. texts], reminders);
    }
}
