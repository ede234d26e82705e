using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using System.Globalization;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.Extensions.Options;
using Microsoft.OpenApi;
using Slots.Hosting.Staff;
using Slots.Persons;

namespace Slots.Api.Http;

/// <summary>
/// Makes /openapi/v1.json the contract: every problem response with its codes and Retry-After,
/// the headers the handlers read, the credentials each staff operation takes, and a document that does
/// not depend on the host it was asked from (frontend/openapi.json is a snapshot of it).
/// </summary>
internal static partial class ContractTransformers
{
    public const string ProblemSchema = "Problem";
    public const string ApiKeyScheme = "ApiKey";
    public const string BearerScheme = "Bearer";
    private const string ProblemJson = "application/problem+json";

    private static readonly Dictionary<string, string> TagDescriptions = new(StringComparer.Ordinal)
    {
        ["Places"] = "Finding a place and its free seats.",
        ["Reservations"] = "Booking, looking up, cancelling and rescheduling a reservation.",
        ["Admin"] = "Places, slot generation, statistics, waiting-room openings and machine keys: for people signed in through the site's OpenID provider with the admin role (viewer: statistics, jobs and openings only), and for machine keys in X-Api-Key.",
        ["Waiting room"] = "Fair admission while an opening is on: join, learn where you stand, book when admitted.",
        ["Staff"] = "The site's day for signed-in staff (a bearer token from the site's OpenID provider): roster, export, check-in at the door, audit trail. Roles per place.",
        ["Vaccine finders"] = "Free and busy slots published as SMART Scheduling Links (FHIR R4 NDJSON behind a $bulk-publish manifest), open to anyone.",
        ["Privacy"] = "What the privacy page states from the server's own settings: how long personal data is kept, and whom to ask.",
    };

    public static IServiceCollection AddSlotsOpenApi(this IServiceCollection services) =>
        services.AddOpenApi(o =>
        {
            o.AddDocumentTransformer((document, _, _) => Document(document));
            o.AddOperationTransformer((operation, context, _) => Operation(operation, context));
            o.AddSchemaTransformer((schema, context, _) => Schema(schema, context));
        });

    private static Task Document(OpenApiDocument document)
    {
        document.Info = new OpenApiInfo
        {
            Title = "Slots API",
            Version = "v1",
            Description = "Books limited appointment slots and stays up in a stampede. Every error is an RFC 9457 problem "
                + "(application/problem+json) with a stable `type` (urn:slots:problem:<code>) and a machine-readable `code`; "
                + "429 and 503 carry Retry-After, and a retry with the same Idempotency-Key never books twice.",
        };
        // The document is the same whatever host serves it: clients call the API on the origin that served it.
        document.Servers = [new OpenApiServer { Url = "/", Description = "The origin serving this document: HAProxy in front, or one instance." }];
        document.Tags ??= new HashSet<OpenApiTag>();
        foreach (var (name, description) in TagDescriptions)
        {
            if (document.Tags.FirstOrDefault(t => t.Name == name) is { } tag)
            {
                tag.Description = description;
            }
            else
            {
                document.Tags.Add(new OpenApiTag { Name = name, Description = description });
            }
        }
        document.Components ??= new OpenApiComponents();
        document.Components.Schemas ??= new Dictionary<string, IOpenApiSchema>();
        document.Components.Schemas[ProblemSchema] = Problem();
        // A nested object is written as oneOf [null, its reference]; a required one is the reference alone.
        foreach (var schema in document.Components.Schemas.Values.OfType<OpenApiSchema>().Where(s => s.Required is { Count: > 0 } && s.Properties is not null))
        {
            foreach (var name in schema.Required!)
            {
                if (schema.Properties!.TryGetValue(name, out var member) && member is OpenApiSchema { OneOf: { Count: 2 } oneOf }
                    && oneOf.Where(s => s is not OpenApiSchema { Type: JsonSchemaType.Null }).ToList() is [var only])
                {
                    schema.Properties[name] = only;
                }
            }
        }
        // Every problem response points at Problem; the framework's own problem schemas would be unused.
        document.Components.Schemas.Remove("HttpValidationProblemDetails");
        document.Components.Schemas.Remove("ProblemDetails");
        document.Components.SecuritySchemes ??= new Dictionary<string, IOpenApiSecurityScheme>();
        document.Components.SecuritySchemes[ApiKeyScheme] = new OpenApiSecurityScheme
        {
            Type = SecuritySchemeType.ApiKey,
            In = ParameterLocation.Header,
            Name = StaffKeys.Header,
            Description = "A machine key, for scripts: role admin (everything) or viewer (statistics, jobs and /metrics only). "
                + "Admins make and revoke them at /api/admin/keys. Each operation's requirement lists the roles it takes.",
        };
        document.Components.SecuritySchemes[BearerScheme] = new OpenApiSecurityScheme
        {
            Type = SecuritySchemeType.Http,
            Scheme = "bearer",
            BearerFormat = "JWT",
            Description = "An access token from the site's OpenID provider (Authorization: Bearer), for people: claim `role` "
                + "(admin, viewer, site-manager, site-staff) and, for site roles, claim `places`. Each operation's requirement lists the roles it takes.",
        };
        return Task.CompletedTask;
    }

    private static async Task Operation(OpenApiOperation operation, OpenApiOperationTransformerContext context)
    {
        var metadata = context.Description.ActionDescriptor.EndpointMetadata;
        var codes = metadata.OfType<ProblemsMetadata>().SelectMany(m => m.Types).Distinct().ToList();
        operation.Responses ??= new OpenApiResponses();
        foreach (var status in codes.GroupBy(c => c.Status).OrderBy(g => g.Key))
        {
            operation.Responses[status.Key.ToString(CultureInfo.InvariantCulture)] = ProblemResponse(status.ToList(), context.Document);
        }
        foreach (var header in metadata.OfType<ResponseHeaderMetadata>())
        {
            if (operation.Responses.TryGetValue(header.Status.ToString(CultureInfo.InvariantCulture), out var response) && response is OpenApiResponse concrete)
            {
                concrete.Headers ??= new Dictionary<string, IOpenApiHeader>();
                concrete.Headers[header.Name] = new OpenApiHeader
                {
                    Description = header.Description,
                    Required = header.Required,
                    Schema = new OpenApiSchema { Type = JsonSchemaType.String, Format = header.Format },
                };
            }
        }
        // Success first, then the problems by status: the snapshot reads in a stable order.
        var ordered = operation.Responses.OrderBy(r => r.Key, StringComparer.Ordinal).ToList();
        operation.Responses.Clear();
        foreach (var (status, response) in ordered)
        {
            operation.Responses[status] = response;
        }
        foreach (var header in metadata.OfType<HeaderMetadata>())
        {
            operation.Parameters ??= [];
            operation.Parameters.Add(new OpenApiParameter
            {
                Name = header.Name,
                In = ParameterLocation.Header,
                Required = header.Required,
                Description = header.Description,
                Schema = new OpenApiSchema
                {
                    Type = JsonSchemaType.String,
                    MinLength = header.MinLength,
                    MaxLength = header.MaxLength,
                    Pattern = header.Pattern ?? (header.Phone ? Patterns.Phone(Options(context.ApplicationServices).DefaultCountryCode) : null),
                },
            });
        }
        foreach (var query in metadata.OfType<ParameterMetadata>())
        {
            if (operation.Parameters?.OfType<OpenApiParameter>().FirstOrDefault(p => p.Name == query.Name && p.In is ParameterLocation.Query or ParameterLocation.Path) is { } parameter)
            {
                parameter.Description = query.Description;
                parameter.Schema = query.Schema;
            }
        }
        operation.Security = await SecurityAsync(context);
    }

    /// <summary>
    /// One status's problems: the one Problem schema (a generated client gets one problem type, its
    /// code an enum of every code), the codes this operation can answer at this status in the
    /// description and in x-problem-codes, and Retry-After where one of them carries it.
    /// </summary>
    private static OpenApiResponse ProblemResponse(List<ProblemType> problems, OpenApiDocument? document)
    {
        var response = new OpenApiResponse
        {
            Description = string.Join("; ", problems.Select(p => $"`{p.Code}`: {p.When}")) + ".",
            Content = new Dictionary<string, OpenApiMediaType>
            {
                [ProblemJson] = new() { Schema = new OpenApiSchemaReference(ProblemSchema, document) },
            },
            Extensions = new Dictionary<string, IOpenApiExtension>
            {
                ["x-problem-codes"] = new JsonNodeExtension(new JsonArray([.. problems.Select(p => (JsonNode)p.Code)])),
            },
        };
        if (problems.Any(p => p.RetryAfter))
        {
            response.Headers = new Dictionary<string, IOpenApiHeader>
            {
                ["Retry-After"] = new OpenApiHeader
                {
                    Description = "Seconds to wait before retrying (with the same Idempotency-Key)"
                        + (problems.All(p => p.RetryAfter) ? "." : $"; sent with {string.Join(", ", problems.Where(p => p.RetryAfter).Select(p => p.Code))}."),
                    Schema = new OpenApiSchema { Type = JsonSchemaType.Integer, Minimum = "1" },
                },
            };
        }
        return response;
    }

    private static PersonOptions Options(IServiceProvider services) => services.GetRequiredService<IOptions<PersonOptions>>().Value;

    /// <summary>RFC 9457 problem details with the API's members.</summary>
    private static OpenApiSchema Problem() => new()
    {
        Type = JsonSchemaType.Object,
        Description = "An RFC 9457 problem. `code` is stable and meant for programs; docs/problems.md lists every code.",
        Required = new HashSet<string> { "type", "title", "status", "code" },
        Properties = new Dictionary<string, IOpenApiSchema>
        {
            ["type"] = new OpenApiSchema { Type = JsonSchemaType.String, Description = "urn:slots:problem:<code>" },
            ["title"] = new OpenApiSchema { Type = JsonSchemaType.String },
            ["status"] = new OpenApiSchema { Type = JsonSchemaType.Integer, Format = "int32" },
            ["detail"] = new OpenApiSchema { Type = JsonSchemaType.String },
            ["instance"] = new OpenApiSchema { Type = JsonSchemaType.String },
            ["code"] = new OpenApiSchema
            {
                Type = JsonSchemaType.String,
                Description = "What went wrong, for programs; the response's description says which codes each status can carry.",
                Enum = [.. ProblemTypes.All.Select(p => (JsonNode)p.Code)],
            },
            ["errors"] = new OpenApiSchema
            {
                Type = JsonSchemaType.Object,
                Description = "validation-failed: each field, query parameter or header that is wrong, with what is expected.",
                AdditionalProperties = new OpenApiSchema { Type = JsonSchemaType.Array, Items = new OpenApiSchema { Type = JsonSchemaType.String } },
            },
            ["alternatives"] = new OpenApiSchema
            {
                Type = JsonSchemaType.Array,
                Description = "slot-full: the nearest free slots at the place.",
                Items = new OpenApiSchema
                {
                    Type = JsonSchemaType.Object,
                    Required = new HashSet<string> { "placeId", "day", "time", "free" },
                    Properties = new Dictionary<string, IOpenApiSchema>
                    {
                        ["placeId"] = new OpenApiSchema { Type = JsonSchemaType.Integer, Format = "int32" },
                        ["day"] = new OpenApiSchema { Type = JsonSchemaType.String, Format = "date" },
                        ["time"] = new OpenApiSchema { Type = JsonSchemaType.String, Pattern = Patterns.Time },
                        ["free"] = new OpenApiSchema { Type = JsonSchemaType.Integer, Format = "int32" },
                    },
                },
            },
            ["rule"] = new OpenApiSchema
            {
                Type = JsonSchemaType.String,
                Enum = ["age", "invitation"],
                Description = "not-eligible: the rule of the service that refused the person.",
            },
            ["reason"] = new OpenApiSchema
            {
                Type = JsonSchemaType.String,
                Enum = ["too-young", "no-birth-date", "invitation-required", "invitation-unknown", "invitation-used", "invitation-revoked"],
                Description = "not-eligible: why.",
            },
            ["opensOn"] = new OpenApiSchema
            {
                Type = JsonSchemaType.String,
                Format = "date",
                Description = "not-eligible: the day the person's age group opens, in the place's time zone; absent where no announced step covers them.",
            },
            ["bookings"] = new OpenApiSchema
            {
                Type = JsonSchemaType.Array,
                Description = "capacity-below-booked: the bookings of the slots that hold more than the seats asked for.",
                Items = new OpenApiSchema
                {
                    Type = JsonSchemaType.Object,
                    Required = new HashSet<string> { "code", "day", "time" },
                    Properties = new Dictionary<string, IOpenApiSchema>
                    {
                        ["code"] = new OpenApiSchema { Type = JsonSchemaType.String },
                        ["day"] = new OpenApiSchema { Type = JsonSchemaType.String, Format = "date" },
                        ["time"] = new OpenApiSchema { Type = JsonSchemaType.String, Pattern = Patterns.Time },
                    },
                },
            },
            ["state"] = new OpenApiSchema
            {
                Type = JsonSchemaType.String,
                Enum = ["cancelled"],
                Description = "reservation-cancelled: the reservation's state, for its owner.",
            },
            ["existingCode"] = new OpenApiSchema { Type = JsonSchemaType.String, Description = "already-booked: the code of the reservation the person holds, only for the phone that booked it." },
            ["openingId"] = new OpenApiSchema { Type = JsonSchemaType.Integer, Format = "int64", Description = "waiting-room-*: the opening whose waiting room the place is in." },
            ["room"] = new OpenApiSchema
            {
                Type = JsonSchemaType.Object,
                Description = "waiting-room-not-admitted: where the token stands, as GET /api/waiting-room/status answers it.",
                Required = new HashSet<string> { "state", "openingId", "seatsLeft", "askAgainSeconds" },
                Properties = new Dictionary<string, IOpenApiSchema>
                {
                    ["state"] = new OpenApiSchema { Type = JsonSchemaType.String, Enum = ["waiting", "admitted", "no-seats-left", "closed", "expired"] },
                    ["openingId"] = new OpenApiSchema { Type = JsonSchemaType.Integer, Format = "int64" },
                    ["seatsLeft"] = new OpenApiSchema { Type = JsonSchemaType.Integer, Format = "int64" },
                    ["askAgainSeconds"] = new OpenApiSchema { Type = JsonSchemaType.Integer, Format = "int32" },
                },
            },
        },
    };
}
