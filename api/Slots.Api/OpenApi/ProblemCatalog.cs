namespace Slots.Api.OpenApi;

/// <summary>One problem a client can get: its code, status and when it is answered (docs/problems.md says the same for people).</summary>
internal sealed record ProblemEntry(string Code, int Status, string When, bool RetryAfter = false);

/// <summary>
/// Every problem code, for the OpenAPI document: an operation names the codes it can answer
/// (<see cref="ContractMetadata.Problems"/>) and the document lists them per status.
/// </summary>
internal static class ProblemCatalog
{
    public const string ValidationFailed = "validation-failed";
    public const string NotFound = "not-found";
    public const string UnsupportedMediaType = "unsupported-media-type";
    public const string BodyTooLarge = "body-too-large";
    public const string UnknownPlace = "unknown-place";
    public const string UnknownSlot = "unknown-slot";
    public const string SlotFull = "slot-full";
    public const string SlotStarted = "slot-started";
    public const string AlreadyBooked = "already-booked";
    public const string RequestInProgress = "request-in-progress";
    public const string IdempotencyKeyReused = "idempotency-key-reused";
    public const string ReservationNotFound = "reservation-not-found";
    public const string ReservationStarted = "reservation-started";
    public const string RescheduleAcrossWindow = "reschedule-across-window";
    public const string WaitingRoomRequired = "waiting-room-required";
    public const string WaitingRoomNotAdmitted = "waiting-room-not-admitted";
    public const string WaitingRoomAdmissionExpired = "waiting-room-admission-expired";
    public const string WaitingRoomAdmissionUsed = "waiting-room-admission-used";
    public const string WaitingRoomTokenInvalid = "waiting-room-token-invalid";
    public const string OpeningNotFound = "opening-not-found";
    public const string OpeningClosed = "opening-closed";
    public const string OpeningOverlaps = "opening-overlaps";
    public const string Unauthenticated = "unauthenticated";
    public const string Forbidden = "forbidden";
    public const string RateLimited = "rate-limited";
    public const string Overloaded = "overloaded";
    public const string DatabaseUnavailable = "database-unavailable";
    public const string ServiceBusy = "service-busy";
    public const string InternalError = "internal-error";

    private static readonly ProblemEntry[] Entries =
    [
        new(ValidationFailed, 400, "a field, query parameter or header is missing, malformed or out of range, or the day has passed (`errors` names each field)"),
        new(NotFound, 404, "no endpoint at that path (e.g. a path parameter that is not a number)"),
        new(UnsupportedMediaType, 415, "the body is not `application/json`"),
        new(BodyTooLarge, 413, "the body is over 16 KiB"),
        new(UnknownPlace, 404, "no active place with that id"),
        new(UnknownSlot, 404, "the place has no slot at that day and time"),
        new(SlotFull, 409, "every seat of the slot is taken; `alternatives` lists the nearest free slots at the place"),
        new(SlotStarted, 409, "the slot has already begun"),
        new(AlreadyBooked, 409, "the person already holds an active future reservation; `existingCode` carries its code, only for the phone that booked it"),
        new(RequestInProgress, 409, "a request with the same Idempotency-Key is still running; retry after `Retry-After`", RetryAfter: true),
        new(IdempotencyKeyReused, 422, "the Idempotency-Key came with a different request"),
        new(ReservationNotFound, 404, "no reservation with that code for that phone or national id"),
        new(ReservationStarted, 409, "the reservation's slot has begun; it can't be changed"),
        new(RescheduleAcrossWindow, 409, "a move between a day inside the hot window and one beyond it; cancel and book again"),
        new(WaitingRoomRequired, 403, "the place is in an open waiting-room opening and the request has no valid `Waiting-Room-Token` for it; `openingId` names the opening to join"),
        new(WaitingRoomNotAdmitted, 403, "the token's turn has not come yet (or the scope has no free seat now); `room` says where it stands, `Retry-After` when to ask again", RetryAfter: true),
        new(WaitingRoomAdmissionExpired, 403, "the token was admitted, and its time to book has passed"),
        new(WaitingRoomAdmissionUsed, 409, "another booking already used this token's admission (one booking per admission)"),
        new(WaitingRoomTokenInvalid, 401, "the `Waiting-Room-Token` is missing, malformed, not signed by this deployment, or past its lifetime; join again"),
        new(OpeningNotFound, 404, "no waiting-room opening with that id"),
        new(OpeningClosed, 409, "the opening is closed: booking in its scope works without a waiting room"),
        new(OpeningOverlaps, 409, "an open opening already covers one of the places; `openingId` names it"),
        new(Unauthenticated, 401, "no valid staff key in `X-Api-Key`"),
        new(Forbidden, 403, "the key's role may not do this (viewer keys read statistics only)"),
        new(RateLimited, 429, "the client address is over its budget (the API's limiter, or HAProxy's in front)", RetryAfter: true),
        new(Overloaded, 429, "HAProxy in front turned the request away at once because too many already wait", RetryAfter: true),
        new(DatabaseUnavailable, 503, "the database does not answer; nothing was half-written", RetryAfter: true),
        new(ServiceBusy, 503, "HAProxy in front found every instance down or busy past its queue timeout", RetryAfter: true),
        new(InternalError, 500, "a bug; logged without personal data"),
    ];

    /// <summary>What a booking into a place inside an open waiting-room opening can meet at its gate.</summary>
    public static readonly string[] WaitingRoomGate = [WaitingRoomRequired, WaitingRoomNotAdmitted, WaitingRoomAdmissionExpired, WaitingRoomAdmissionUsed];

    /// <summary>What any operation can meet under load or failure: limits (the API's or HAProxy's), a lost database, a bug.</summary>
    public static readonly string[] Shedding = [RateLimited, Overloaded, DatabaseUnavailable, ServiceBusy, InternalError];

    private static readonly Dictionary<string, ProblemEntry> ByCode = Entries.ToDictionary(e => e.Code, StringComparer.Ordinal);

    public static IReadOnlyList<ProblemEntry> All => Entries;

    public static ProblemEntry Of(string code) =>
        ByCode.TryGetValue(code, out var entry) ? entry : throw new ArgumentException($"Unknown problem code {code}.", nameof(code));
}
