using Microsoft.Extensions.Options;
using Slots.Persons;
using Slots.Reservations;

namespace Slots.Api.Reservations;

/// <summary>A person's fields, normalised: the national id only as its keyed hash, and the birth date it encodes when it is a birth number.</summary>
internal sealed record PersonFields(string Name, string Phone, string PersonHash, string Language, DateOnly? BornOn = null);

/// <summary>Turns what a person sent into normalised domain requests, or field errors.</summary>
internal sealed class ReservationRequests(PersonIdentity persons, Eligibility.InvitationKey invitations, IOptions<PersonOptions> options)
{
    public const string PhoneHeader = "Slots-Phone";
    public const string NationalIdHeader = "Slots-National-Id";
    public const string IdempotencyHeader = "Idempotency-Key";

    private static readonly string[] Languages = ["sk", "en"];

    public BookingRequest? Booking(ReserveRequest body, string? idempotencyKey, Validation v)
    {
        if (string.IsNullOrWhiteSpace(idempotencyKey))
        {
            v.Add(IdempotencyHeader, "The Idempotency-Key header is required: a new random value (e.g. a UUID) per booking, reused on retries.");
        }
        else if (!IsValidKey(idempotencyKey))
        {
            v.Add(IdempotencyHeader, "Use 8 to 100 letters, digits or - _ . : characters.");
        }
        var slot = Slot(body.PlaceId, body.Day, body.Time, v);
        var person = Person(body.Name, body.Phone, body.NationalId, body.Language, v);
        var service = ServiceCode(body.Service, "service", v);
        var invitation = Invitation(body.Invitation, v);
        var second = SecondChoice(body.SecondDay, body.SecondTime, v);
        return v.IsValid
            ? new BookingRequest(slot!.Value, person!.Name, person.Phone, person.PersonHash, person.Language, service, person.BornOn, invitation,
                SecondChoice: second)
            : null;
    }

    /// <summary>The second dose's chosen slot (day and time, both or neither), or null when none was chosen.</summary>
    private static (DateOnly Day, int StartMinute)? SecondChoice(string? day, string? time, Validation v)
    {
        if (day is null && time is null)
        {
            return null;
        }
        var valid = true;
        if (!Formats.TryDay(day, out var parsedDay))
        {
            valid = Invalid(v, "secondDay", $"The second dose's day, as {Formats.DayFormat}, with secondTime.");
        }
        if (!Formats.TryTime(time, out var parsedTime))
        {
            valid = Invalid(v, "secondTime", "The second dose's start, as HH:mm, with secondDay.");
        }
        return valid ? (parsedDay, SlotKey.MinuteOf(parsedTime)) : null;
    }

    /// <summary>
    /// The keyed hash of the invitation code a person typed (null when none came), or a field error
    /// when it cannot be a code. Without a configured key no code is valid: the hash is then one that
    /// no stored code has (a stored one has 64 hex characters), so the store answers invitation-unknown.
    /// </summary>
    private string? Invitation(string? typed, Validation v)
    {
        if (typed is null)
        {
            return null;
        }
        if (Eligibility.InvitationCode.Normalize(typed) is not { } code)
        {
            v.Add("invitation", "Not an invitation code: 12 letters and digits, as XXXX-XXXX-XXXX.");
            return null;
        }
        return invitations.Hash(code) ?? NoInvitationKey;
    }

    private const string NoInvitationKey = "-";

    /// <summary>A service's code as sent (null: none named), or a field error when it cannot be one.</summary>
    public static string? ServiceCode(string? code, string field, Validation v)
    {
        if (code is not null && !Places.ServiceCodes.IsValid(code))
        {
            v.Add(field, "A service's code: 1 to 32 lower-case letters, digits or dashes (GET /api/services lists them).");
        }
        return code;
    }

    /// <summary>
    /// A read's optional service filter: null (every service) when none is named, the named service's id when the
    /// catalogue has it (active or not: a filter reads history), false when it has not.
    /// </summary>
    public static bool TryServiceFilter(string? code, IReadOnlyList<Catalogue.ServiceInfo> catalogue, out int? serviceId)
    {
        serviceId = null;
        if (code is null)
        {
            return true;
        }
        serviceId = catalogue.FirstOrDefault(s => s.Code == code)?.Id;
        return serviceId is not null;
    }

    /// <summary>Who a person is, as a booking or a waiting-list entry keeps it: name, phone, the national id's keyed hash, SMS language.</summary>
    public PersonFields? Person(string? rawName, string? rawPhone, string? rawNationalId, string? rawLanguage, Validation v)
    {
        var valid = true;
        var name = rawName?.Trim();
        if (string.IsNullOrEmpty(name))
        {
            valid = Invalid(v, "name", "The name is required.");
        }
        else if (rawName!.Length > 100 || name.Any(char.IsControl))
        {
            valid = Invalid(v, "name", "The name must be at most 100 characters, without control characters.");
        }
        var phone = PhoneNumber.Normalize(rawPhone, options.Value.DefaultCountryCode);
        if (phone is null)
        {
            valid = Invalid(v, "phone", string.IsNullOrWhiteSpace(rawPhone)
                ? "The phone number is required."
                : "Not a phone number: use +421 905 123 456 or 0905 123 456.");
        }
        var nationalId = PersonIdentity.NormalizeNationalId(rawNationalId);
        if (nationalId is null)
        {
            valid = Invalid(v, "nationalId", string.IsNullOrWhiteSpace(rawNationalId)
                ? "The national id is required."
                : "Not a national id: 6 to 20 letters and digits (spaces, / and - are ignored).");
        }
        var language = rawLanguage ?? "sk";
        if (!Languages.Contains(language))
        {
            valid = Invalid(v, "language", "The language must be 'sk' or 'en'.");
        }
        return valid ? new PersonFields(name!, phone!, persons.Hash(nationalId!), language, Eligibility.BirthNumber.BirthDate(nationalId)) : null;
    }

    private static bool Invalid(Validation v, string field, string message)
    {
        v.Add(field, message);
        return false;
    }

    public static SlotKey? Slot(int? placeId, string? day, string? time, Validation v)
    {
        if (placeId is null or < 1)
        {
            v.Add("placeId", "The place id is required and must be positive.");
        }
        if (!Formats.TryDay(day, out var parsedDay))
        {
            v.Add("day", $"The day is required, as {Formats.DayFormat}.");
        }
        if (!Formats.TryTime(time, out var parsedTime))
        {
            v.Add("time", "The time is required, as HH:mm.");
        }
        return v.IsValid ? new SlotKey(placeId!.Value, parsedDay, SlotKey.MinuteOf(parsedTime)) : null;
    }

    /// <summary>The phone or national id from the headers (never the URL), or field errors when neither is usable.</summary>
    public ContactProof? Proof(HttpRequest request, Validation v)
    {
        // A header sent must hold its value: an empty one is refused, not taken as absent.
        var sentPhone = request.Headers.TryGetValue(PhoneHeader, out var rawPhone);
        var sentId = request.Headers.TryGetValue(NationalIdHeader, out var rawId);
        if (!sentPhone && !sentId)
        {
            v.Add(PhoneHeader, $"Send the phone number ({PhoneHeader}) or the national id ({NationalIdHeader}) used for the booking.");
            return null;
        }
        string? phone = null, hash = null, previousHash = null;
        if (sentPhone && (phone = PhoneNumber.Normalize(rawPhone.ToString(), options.Value.DefaultCountryCode)) is null)
        {
            v.Add(PhoneHeader, "Not a phone number.");
        }
        if (sentId)
        {
            var id = PersonIdentity.NormalizeNationalId(rawId.ToString());
            if (id is null)
            {
                v.Add(NationalIdHeader, "Not a national id.");
            }
            else
            {
                hash = persons.Hash(id);
                previousHash = persons.PreviousHash(id);
            }
        }
        return v.IsValid ? new ContactProof(phone, hash, previousHash) : null;
    }

    private static bool IsValidKey(string key) =>
        key.Length is >= 8 and <= 100 && key.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.' or ':');
}
