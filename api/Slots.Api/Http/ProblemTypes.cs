namespace Slots.Api.Http;

/// <summary>
/// One kind of problem a client can get: its code (the `code` member, and the type URI
/// urn:slots:problem:&lt;code&gt;), its status, and when it is answered. Declared once, in
/// <see cref="ProblemTypes"/>; the answers (<see cref="Problem.Of"/>) and the OpenAPI document
/// both read it, so a code's status cannot differ between them.
/// </summary>
internal sealed record ProblemType(string Code, int Status, string When, bool RetryAfter = false);

/// <summary>Every problem the API answers (docs/problems.md says the same for people).</summary>
internal static class ProblemTypes
{
    public static readonly ProblemType ValidationFailed = new("validation-failed", 400,
        "a field, query parameter or header is missing, malformed or out of range, or the day has passed (`errors` names each field)");
    public static readonly ProblemType BadRequest = new("bad-request", 400,
        "the request could not be read at all (a malformed header or path the server rejected before any endpoint)");
    public static readonly ProblemType NotFound = new("not-found", 404, "no endpoint at that path (e.g. a path parameter that is not a number)");
    public static readonly ProblemType MethodNotAllowed = new("method-not-allowed", 405, "the path exists but not for this method; `Allow` lists the methods it takes");
    public static readonly ProblemType UnsupportedMediaType = new("unsupported-media-type", 415, "the body is not `application/json`");
    public static readonly ProblemType BodyTooLarge = new("body-too-large", 413, "the body is over 16 KiB");
    public static readonly ProblemType HeadersTooLarge = new("headers-too-large", 431, "the request's headers are over the server's limit");
    public static readonly ProblemType UnknownPlace = new("unknown-place", 404, "no active place with that id");
    public static readonly ProblemType UnknownSlot = new("unknown-slot", 404, "the place has no slot at that day and time");
    public static readonly ProblemType SlotFull = new("slot-full", 409,
        "every seat of the slot is taken; `alternatives` lists the nearest free slots at the place");
    public static readonly ProblemType SlotStarted = new("slot-started", 409, "the slot has already begun");
    public static readonly ProblemType PlaceClosed = new("place-closed", 409,
        "an admin closed the place to new bookings (bookings made before may stand); it takes bookings again once reopened");
    public static readonly ProblemType UnknownService = new("unknown-service", 404, "the place does not offer the service named");
    public static readonly ProblemType NotEligible = new("not-eligible", 403, "the person may not book this service (its age rule or invitation rule refuses them)");
    public static readonly ProblemType SecondDoseFull = new("second-dose-full", 409,
        "a two-dose booking found no free seat for the second dose in its interval; nothing was booked");
    public static readonly ProblemType PairFirstDoseFixed = new("pair-first-dose-fixed", 409,
        "the first dose of a two-dose booking cannot be moved; cancel the pair and book again");
    public static readonly ProblemType SecondDoseOutsideInterval = new("second-dose-outside-interval", 422,
        "the second dose chosen (in a booking or a move) lies outside the service's interval after the first dose, or at another place");
    public static readonly ProblemType NoSecondDose = new("no-second-dose", 422,
        "a second dose was chosen or moved for a booking whose service has one appointment");
    public static readonly ProblemType AlreadyBooked = new("already-booked", 409,
        "the person already holds an active future reservation; `existingCode` carries its code, only for the phone that booked it");
    public static readonly ProblemType RequestInProgress = new("request-in-progress", 409,
        "a request with the same Idempotency-Key is still running; retry after `Retry-After`", RetryAfter: true);
    public static readonly ProblemType IdempotencyKeyReused = new("idempotency-key-reused", 422, "the Idempotency-Key came with a different request");
    public static readonly ProblemType ReservationNotFound = new("reservation-not-found", 404,
        "no reservation with that code for that phone or national id");
    public static readonly ProblemType ReservationCancelled = new("reservation-cancelled", 410,
        "the reservation was cancelled (`state` is `cancelled`); only the phone or national id it was made with learns this, anyone else gets reservation-not-found");
    public static readonly ProblemType WrongProofLimit = new("wrong-proof-limit", 429,
        "the booking code took too many wrong phones or national ids (5 in an hour by default, from any client): it answers nothing, whatever the proof, until `Retry-After`",
        RetryAfter: true);
    public static readonly ProblemType ReservationStarted = new("reservation-started", 409, "the reservation's slot has begun; it can't be changed");
    public static readonly ProblemType RescheduleAcrossWindow = new("reschedule-across-window", 409,
        "a move between a day inside the hot window and one beyond it; cancel and book again");
    public static readonly ProblemType AdmissionRequired = new("waiting-room-required", 403,
        "the place is in an open waiting-room opening and the request has no valid `Waiting-Room-Token` for it; `openingId` names the opening to join");
    public static readonly ProblemType NotYetAdmitted = new("waiting-room-not-admitted", 403,
        "the token's turn has not come yet (or the scope has no free seat now); `room` says where it stands, `Retry-After` when to ask again", RetryAfter: true);
    public static readonly ProblemType AdmissionExpired = new("waiting-room-admission-expired", 403, "the token was admitted, and its time to book has passed");
    public static readonly ProblemType AdmissionUsed = new("waiting-room-admission-used", 409,
        "another booking already used this token's admission (one booking per admission)");
    public static readonly ProblemType AdmissionTokenInvalid = new("waiting-room-token-invalid", 401,
        "the `Waiting-Room-Token` is missing, malformed, not signed by this deployment, or past its lifetime; join again");
    public static readonly ProblemType CapacityBelowBooked = new("capacity-below-booked", 409,
        "a cut of a place's seats below what a slot has booked: nothing was changed; `bookings` names those in the way");
    public static readonly ProblemType BlockNotFound = new("block-not-found", 404,
        "no standing block of the place's own with that id: opened again already, of a day that has passed, or part of the place's close (reopen the place)");
    public static readonly ProblemType OpeningNotFound = new("opening-not-found", 404, "no waiting-room opening with that id");
    public static readonly ProblemType OpeningClosed = new("opening-closed", 409, "the opening is closed: booking in its scope works without a waiting room");
    public static readonly ProblemType OpeningOverlaps = new("opening-overlaps", 409, "an open opening already covers one of the places; `openingId` names it");
    public static readonly ProblemType Unauthenticated = new("unauthenticated", 401,
        "no staff credentials, or ones that do not hold: a bearer token missing, expired, for another audience or not signed by the configured provider, or an unknown, expired or revoked `X-Api-Key`");
    public static readonly ProblemType Forbidden = new("forbidden", 403, "the role may not do this (viewer keys read statistics only; site staff neither cancel blocks nor export)");
    public static readonly ProblemType MachineKeyNotFound = new("machine-key-not-found", 404, "no machine key with that id");
    public static readonly ProblemType InvitationBatchNotFound = new("invitation-batch-not-found", 404, "no batch of invitation codes with that id");
    public static readonly ProblemType InvitationsOff = new("invitations-off", 409,
        "no invitation key is configured (Slots:Invitations:HmacSecret), so no code can be issued or admit anybody");
    public static readonly ProblemType PlaceForbidden = new("place-forbidden", 403, "the token's places do not include this place: site staff and managers act only at their own places");
    public static readonly ProblemType CheckInCancelled = new("check-in-cancelled", 409, "the booking was cancelled (by the citizen, before the door)");
    public static readonly ProblemType CheckInOtherPlace = new("check-in-other-place", 409, "the booking is at another place");
    public static readonly ProblemType CheckInOtherDay = new("check-in-other-day", 409, "the booking is for another day; `time` is its start");
    public static readonly ProblemType CheckInTooEarly = new("check-in-too-early", 409, "the slot starts later than the door may check in (Slots:Staff:CheckIn:Earliest); `time` is its start");
    public static readonly ProblemType CheckInTooLate = new("check-in-too-late", 409, "the slot started longer ago than the door may check in (Slots:Staff:CheckIn:Latest); `time` is its start");
    public static readonly ProblemType CheckInNotThePerson = new("check-in-not-the-person", 409, "the national id typed at the door is not the booking's person");
    public static readonly ProblemType ReservationCheckedIn = new("reservation-checked-in", 409, "the reservation was checked in at the door: the visit happened, and it can no longer be cancelled or moved");
    public static readonly ProblemType SeatsFree = new("seats-free", 409, "seats are free at the place on the days asked for: book one instead of joining its waiting list");
    public static readonly ProblemType WaitingListJoined = new("waiting-list-joined", 409, "the person is on the place's waiting list already; `position` is their place in line");
    public static readonly ProblemType WaitingListEntryNotFound = new("waiting-list-entry-not-found", 404, "no waiting-list entry has the token in Slots-Waiting-List-Token");
    public static readonly ProblemType OfferNotFound = new("offer-not-found", 409, "no seat is held for the waiting-list entry (not offered yet, or left)");
    public static readonly ProblemType OfferExpired = new("offer-expired", 410, "the hold on the offered seat ran out and the seat went to the next in line");
    public static readonly ProblemType RateLimited = new("rate-limited", 429,
        "the client address is over its budget (the API's limiter, or HAProxy's in front)", RetryAfter: true);
    public static readonly ProblemType Overloaded = new("overloaded", 429,
        "turned away because the server is at capacity: the booking path's adaptive limit of requests in flight (`Slots:ConcurrencyLimit`) is reached, or HAProxy's queue is as long as what is being served, or the request waited there past its budget (100 ms)", RetryAfter: true);
    public static readonly ProblemType DatabaseUnavailable = new("database-unavailable", 503,
        "the database does not answer; nothing was half-written", RetryAfter: true);
    public static readonly ProblemType ServiceBusy = new("service-busy", 503,
        "HAProxy in front found every instance down", RetryAfter: true);
    public static readonly ProblemType BadGateway = new("bad-gateway", 502,
        "HAProxy in front got no proper answer from an instance (it failed mid-answer); retry with the same Idempotency-Key", RetryAfter: true);
    public static readonly ProblemType GatewayTimeout = new("gateway-timeout", 504,
        "HAProxy in front waited too long for an instance; retry with the same Idempotency-Key, which tells whether it booked", RetryAfter: true);
    public static readonly ProblemType Contention = new("contention", 503,
        "only the benchmark's EF Core baseline (never mapped in production): every attempt lost a race for a seat", RetryAfter: true);
    public static readonly ProblemType InternalError = new("internal-error", 500, "a bug; logged without personal data");

    /// <summary>Every problem type, in the order docs/problems.md lists them.</summary>
    public static readonly IReadOnlyList<ProblemType> All =
    [
        ValidationFailed, BadRequest, NotFound, MethodNotAllowed, UnsupportedMediaType, BodyTooLarge, HeadersTooLarge,
        UnknownPlace, UnknownSlot, SlotFull, SlotStarted, PlaceClosed,
        UnknownService, NotEligible, SecondDoseFull, PairFirstDoseFixed, SecondDoseOutsideInterval, NoSecondDose, AlreadyBooked, RequestInProgress, IdempotencyKeyReused,
        ReservationNotFound, ReservationCancelled, WrongProofLimit, ReservationStarted, RescheduleAcrossWindow,
        AdmissionRequired, NotYetAdmitted, AdmissionExpired, AdmissionUsed, AdmissionTokenInvalid,
        CapacityBelowBooked, BlockNotFound, OpeningNotFound, OpeningClosed, OpeningOverlaps, Unauthenticated, Forbidden, PlaceForbidden, MachineKeyNotFound,
        InvitationBatchNotFound, InvitationsOff,
        CheckInCancelled, CheckInOtherPlace, CheckInOtherDay, CheckInTooEarly, CheckInTooLate, CheckInNotThePerson, ReservationCheckedIn,
        SeatsFree, WaitingListJoined, WaitingListEntryNotFound, OfferNotFound, OfferExpired,
        RateLimited, Overloaded, DatabaseUnavailable, ServiceBusy, BadGateway, GatewayTimeout, Contention, InternalError,
    ];

    /// <summary>What a booking into a place inside an open waiting-room opening can meet at its gate.</summary>
    public static readonly ProblemType[] AdmissionGate = [AdmissionRequired, NotYetAdmitted, AdmissionExpired, AdmissionUsed];

    /// <summary>What any operation can meet under load or failure: limits (the API's or HAProxy's), a lost database, a bug.</summary>
    public static readonly ProblemType[] Shedding = [RateLimited, Overloaded, DatabaseUnavailable, ServiceBusy, BadGateway, GatewayTimeout, InternalError];

    /// <summary>What reading a JSON body can answer (<see cref="JsonBody{T}"/>).</summary>
    public static readonly ProblemType[] Body = [ValidationFailed, BodyTooLarge, UnsupportedMediaType];

    private static readonly Dictionary<string, ProblemType> ByCode = All.ToDictionary(p => p.Code, StringComparer.Ordinal);

    public static ProblemType? Find(string code) => ByCode.GetValueOrDefault(code);
}
