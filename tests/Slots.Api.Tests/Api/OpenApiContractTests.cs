using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using Slots.Testing;

namespace Slots.Api.Tests.Api;

/// <summary>
/// The SPA's types are generated from frontend/openapi.json (tools/openapi lints it in the SPA's
/// `npm test`), so the snapshot must be exactly what the API serves: a change to the contract
/// fails here until the snapshot is refreshed with SLOTS_UPDATE_OPENAPI=1.
/// </summary>
public sealed class OpenApiContractTests : ApiTestBase
{
    private static readonly string Snapshot = Path.Combine(Repository.Root, "frontend", "openapi.json");

    [Fact]
    public async Task The_committed_snapshot_is_the_document_the_api_serves()
    {
        var served = Normalized(await (await StartAsync()).Client().GetStringAsync("/openapi/v1.json"));

        if (Environment.GetEnvironmentVariable("SLOTS_UPDATE_OPENAPI") == "1")
        {
            await File.WriteAllTextAsync(Snapshot, served, TestContext.Current.CancellationToken);
        }
        var committed = File.Exists(Snapshot) ? await File.ReadAllTextAsync(Snapshot, TestContext.Current.CancellationToken) : "";

        Assert.True(committed == served,
            "frontend/openapi.json differs from /openapi/v1.json. Refresh it with "
            + "SLOTS_UPDATE_OPENAPI=1 dotnet test tests/Slots.Api.Tests --filter OpenApiContractTests, then rebuild the SPA (npm run build) for its types.");
    }

    [Fact]
    public async Task Every_operation_documents_its_problems_summary_and_security()
    {
        var document = JsonNode.Parse(await (await StartAsync()).Client().GetStringAsync("/openapi/v1.json"))!;
        var operations = document["paths"]!.AsObject()
            .SelectMany(path => path.Value!.AsObject().Select(op => (Name: $"{op.Key.ToUpperInvariant()} {path.Key}", Operation: op.Value!)))
            .ToList();

        Assert.NotEmpty(operations);
        Assert.All(operations, op =>
        {
            Assert.False(string.IsNullOrEmpty(op.Operation["operationId"]?.GetValue<string>()), op.Name);
            Assert.False(string.IsNullOrEmpty(op.Operation["summary"]?.GetValue<string>()), op.Name);
            Assert.NotNull(op.Operation["security"]);
            Assert.Contains("503", op.Operation["responses"]!.AsObject().Select(r => r.Key));
            Assert.NotNull(op.Operation["responses"]!["503"]!["headers"]!["Retry-After"]);
        });
        var reserve = document["paths"]!["/api/reservations"]!["post"]!;
        Assert.Equal(["201", "400", "403", "404", "409", "413", "415", "422", "429", "500", "502", "503", "504"],
            reserve["responses"]!.AsObject().Select(r => r.Key));
        Assert.Equal(["slot-full", "already-booked", "slot-started", "place-closed", "request-in-progress", "second-dose-full", "waiting-room-admission-used"],
            Codes(reserve["responses"]!["409"]!));
        Assert.Equal(["waiting-room-required", "waiting-room-not-admitted", "waiting-room-admission-expired"],
            Codes(reserve["responses"]!["403"]!));
        Assert.Equal("Idempotency-Key", reserve["parameters"]![0]!["name"]!.GetValue<string>());
        // Each staff operation names both schemes the server reads, with the roles it takes on each; a public one names none.
        Assert.Equal("""[{"Bearer":["admin"]},{"ApiKey":["admin"]}]""",
            document["paths"]!["/api/admin/places"]!["post"]!["security"]!.ToJsonString());
        Assert.Equal("""[{"Bearer":["site-staff","site-manager","admin"]},{"ApiKey":["admin"]}]""",
            document["paths"]!["/api/staff/places/{placeId}/roster"]!["get"]!["security"]!.ToJsonString());
        Assert.Equal("""[{"Bearer":["admin","viewer"]},{"ApiKey":["admin","viewer"]}]""",
            document["paths"]!["/api/admin/stats"]!["get"]!["security"]!.ToJsonString());
        Assert.Equal("[{}]", document["paths"]!["/api/places"]!["get"]!["security"]!.ToJsonString());
        Assert.Equal(["ApiKey", "Bearer"], document["components"]!["securitySchemes"]!.AsObject().Select(s => s.Key).Order(StringComparer.Ordinal));
        Assert.Equal("integer", document["paths"]!["/api/places"]!["get"]!["parameters"]!.AsArray()
            .Single(p => p!["name"]!.GetValue<string>() == "page")!["schema"]!["type"]!.GetValue<string>());
    }

    // A client generated from the document once got over a hundred numbered problem types (one allOf per
    // response), and reading `code` through their common base could give the wrong value.
    [Fact]
    public async Task Every_problem_response_is_the_one_problem_type_with_codes_from_its_enum()
    {
        var document = JsonNode.Parse(await (await StartAsync()).Client().GetStringAsync("/openapi/v1.json"))!;
        var known = document["components"]!["schemas"]!["Problem"]!["properties"]!["code"]!["enum"]!.AsArray().Select(c => c!.GetValue<string>()).ToHashSet();
        var problems = document["paths"]!.AsObject()
            .SelectMany(path => path.Value!.AsObject().SelectMany(op => op.Value!["responses"]!.AsObject()
                .Where(r => r.Value!["content"]?["application/problem+json"] is not null)
                .Select(r => (Name: $"{op.Key.ToUpperInvariant()} {path.Key} {r.Key}", Response: r.Value!))))
            .ToList();

        Assert.NotEmpty(problems);
        Assert.Contains("method-not-allowed", known);
        Assert.Contains("reservation-cancelled", known);
        Assert.All(problems, p =>
        {
            Assert.Equal("#/components/schemas/Problem", p.Response["content"]!["application/problem+json"]!["schema"]!["$ref"]?.GetValue<string>());
            Assert.Subset(known, Codes(p.Response).ToHashSet());
        });
    }

    [Fact]
    public async Task Request_bodies_state_their_required_fields_formats_and_patterns()
    {
        var schemas = JsonNode.Parse(await (await StartAsync()).Client().GetStringAsync("/openapi/v1.json"))!["components"]!["schemas"]!;

        Assert.Equal(["placeId", "day", "time", "name", "phone", "nationalId"], Names(schemas["ReserveRequest"]!["required"]!));
        Assert.Equal(["placeId", "day", "time"], Names(schemas["RescheduleRequest"]!["required"]!));
        Assert.Equal("date", schemas["ReserveRequest"]!["properties"]!["day"]!["format"]!.GetValue<string>());
        Assert.Equal("integer", schemas["ReserveRequest"]!["properties"]!["placeId"]!["type"]!.GetValue<string>());
        Assert.NotNull(schemas["ReserveRequest"]!["properties"]!["time"]!["pattern"]);
        Assert.NotNull(schemas["ReserveRequest"]!["properties"]!["phone"]!["pattern"]);
        Assert.Equal(["sk", "en", null], schemas["ReserveRequest"]!["properties"]!["language"]!["enum"]!.AsArray().Select(v => v?.GetValue<string>()));
        // The template may be left out since each place's offer of a service stores one (issue 41): a nullable reference.
        Assert.Equal("#/components/schemas/TemplateRequest",
            schemas["GenerateSlotsRequest"]!["properties"]!["template"]!["oneOf"]!.AsArray().Single(o => o!["$ref"] is not null)!["$ref"]!.GetValue<string>());
        Assert.Equal("^[a-z0-9-]{1,32}$", schemas["ReserveRequest"]!["properties"]!["service"]!["pattern"]!.GetValue<string>());
    }

    private static IEnumerable<string> Names(JsonNode array) => array.AsArray().Select(n => n!.GetValue<string>());

    private static IEnumerable<string> Codes(JsonNode response) =>
        response["x-problem-codes"]!.AsArray().Select(c => c!.GetValue<string>());

    private static string Normalized(string json) =>
        JsonNode.Parse(json)!.ToJsonString(new JsonSerializerOptions { WriteIndented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping }) + "\n";
}
