using System.Net;
using System.Text;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Api;

public sealed class ValidationTests : ApiTestBase
{
    private static StringContent Json(string text) => new(text, Encoding.UTF8, "application/json");

    private static async Task<HttpResponseMessage> PostAsync(HttpClient client, string body, string? key = "valid-key-0001")
    {
        var request = new HttpRequestMessage(HttpMethod.Post, "/api/reservations") { Content = Json(body) };
        if (key is not null)
        {
            request.Headers.Add("Idempotency-Key", key);
        }
        return await client.SendAsync(request);
    }

    [Fact]
    public async Task Missing_fields_are_each_named_in_a_400_problem()
    {
        var client = (await StartAsync()).Client();

        var response = await PostAsync(client, "{}", key: null);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType!.MediaType);
        var problem = await JsonAsync(response);
        Assert.Equal("validation-failed", problem["code"]!.GetValue<string>());
        Assert.Equal("urn:slots:problem:validation-failed", problem["type"]!.GetValue<string>());
        var fields = problem["errors"]!.AsObject().Select(e => e.Key).ToHashSet();
        Assert.Superset(new HashSet<string> { "Idempotency-Key", "placeId", "day", "time", "name", "phone", "nationalId" }, fields);
    }

    [Theory]
    [InlineData("12345", "phone")]
    [InlineData("+421 905 abc", "phone")]
    [InlineData("905123456", "phone")]
    public async Task A_wrong_phone_is_a_400_naming_the_phone(string phone, string field)
    {
        var client = (await StartAsync()).Client();
        var body = $$"""{"placeId":1,"day":"{{Day(Today.AddDays(1))}}","time":"08:00","name":"Ján","phone":"{{phone}}","nationalId":"8001011234"}""";

        var response = await PostAsync(client, body);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var errors = (await JsonAsync(response))["errors"]!.AsObject();
        Assert.True(errors.ContainsKey(field));
        Assert.Single(errors);
    }

    [Fact]
    public async Task Malformed_json_is_a_400_not_a_500()
    {
        var client = (await StartAsync()).Client();

        var broken = await PostAsync(client, """{"placeId": 1, "day": """);
        var wrongType = await PostAsync(client, """{"placeId": "first", "day": "2026-01-01"}""");

        Assert.Equal(HttpStatusCode.BadRequest, broken.StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, wrongType.StatusCode);
        Assert.True((await JsonAsync(wrongType))["errors"]!.AsObject().ContainsKey("placeId"));
    }

    [Fact]
    public async Task An_oversized_body_is_413_and_a_non_json_body_is_415()
    {
        var client = (await StartAsync()).Client();
        var huge = $$"""{"name":"{{new string('x', 40_000)}}"}""";

        var tooLarge = await PostAsync(client, huge);
        var notJson = await client.SendAsync(new HttpRequestMessage(HttpMethod.Post, "/api/reservations")
        {
            Content = new StringContent("placeId=1", Encoding.UTF8, "application/x-www-form-urlencoded"),
        });

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, tooLarge.StatusCode);
        Assert.Equal("body-too-large", await ProblemCodeAsync(tooLarge));
        Assert.Equal(HttpStatusCode.UnsupportedMediaType, notJson.StatusCode);
    }

    [Fact]
    public async Task Unknown_language_and_bad_idempotency_key_are_named()
    {
        var client = (await StartAsync()).Client();
        var body = $$"""{"placeId":1,"day":"{{Day(Today.AddDays(1))}}","time":"08:00","name":"Ján","phone":"0905123456","nationalId":"8001011234","language":"de"}""";

        var response = await PostAsync(client, body, key: "short");

        var errors = (await JsonAsync(response))["errors"]!.AsObject();
        Assert.True(errors.ContainsKey("language"));
        Assert.True(errors.ContainsKey("Idempotency-Key"));
    }

    [Fact]
    public async Task Availability_for_an_unknown_place_is_404_and_a_long_range_is_400()
    {
        var host = await StartAsync();
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);

        var unknown = await client.GetAsync("/api/places/424242/availability");
        var tooLong = await client.GetAsync($"/api/places/{place}/availability?from={Day(Today)}&to={Day(Today.AddDays(40))}");
        var badDay = await client.GetAsync($"/api/places/{place}/availability?from=tomorrow");

        Assert.Equal(HttpStatusCode.NotFound, unknown.StatusCode);
        Assert.Equal("unknown-place", await ProblemCodeAsync(unknown));
        Assert.Equal(HttpStatusCode.BadRequest, tooLong.StatusCode);
        Assert.True((await JsonAsync(tooLong))["errors"]!.AsObject().ContainsKey("to"));
        Assert.True((await JsonAsync(badDay))["errors"]!.AsObject().ContainsKey("from"));
    }

    [Theory]
    [InlineData("name")]
    [InlineData("region")]
    public async Task A_place_search_longer_than_the_column_is_400_naming_the_field(string field)
    {
        var host = await StartAsync();

        var response = await host.Client().GetAsync($"/api/places?{field}={new string('a', 101)}");

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.True((await JsonAsync(response))["errors"]!.AsObject().ContainsKey(field));
    }

    [Fact]
    public async Task Personal_data_never_appears_in_a_problem_response()
    {
        var host = await StartAsync();
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);
        var person = People.Next();
        await client.SendAsync(Reserve(place, Today.AddDays(2), "08:00", person));

        var again = await client.SendAsync(Reserve(place, Today.AddDays(2), "08:00", person with { Phone = "+421911222333" }));
        var text = await again.Content.ReadAsStringAsync();

        Assert.DoesNotContain(person.NationalId, text, StringComparison.Ordinal);
        Assert.DoesNotContain(person.Phone, text, StringComparison.Ordinal);
        Assert.DoesNotContain(person.Name, text, StringComparison.Ordinal);
    }
}
