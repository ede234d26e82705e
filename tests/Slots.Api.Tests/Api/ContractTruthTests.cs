using System.Net;
using System.Net.Sockets;
using System.Text;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Api;

/// <summary>What an integrator found the server doing differently from what the document says.</summary>
public sealed class ContractTruthTests : ApiTestBase
{
    // "placeId":"2" booked: the Web JSON defaults read numbers from strings, the document says integer.
    [Fact]
    public async Task Regression_a_number_sent_as_a_string_was_accepted()
    {
        var host = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2);
        var person = People.Next();
        var request = Reserve(place, Today.AddDays(2), "08:00", person);
        var body = await request.Content!.ReadAsStringAsync(TestContext.Current.CancellationToken);
        request.Content = new StringContent(body.Replace($"\"placeId\":{place}", $"\"placeId\":\"{place}\"", StringComparison.Ordinal),
            Encoding.UTF8, "application/json");

        await AssertInvalidAsync(await host.Client().SendAsync(request), "placeId");
    }

    [Theory]
    [InlineData("/api/places/x5")]
    [InlineData("/api/places/2147483648/availability")]
    [InlineData("/api/places/0")]
    public async Task Regression_a_path_id_that_is_not_a_positive_int_was_a_404_naming_nothing(string path)
    {
        var client = (await StartAsync()).Client();

        await AssertInvalidAsync(await client.GetAsync(path), "id");
    }

    [Fact]
    public async Task Regression_an_empty_contact_header_was_taken_as_absent()
    {
        var client = (await StartAsync()).Client();
        using var request = WithPhone(HttpMethod.Get, "/api/reservations/ABCD-EFGH", "+421905123456");
        request.Headers.Add("Slots-National-Id", "");

        await AssertInvalidAsync(await client.SendAsync(request), "Slots-National-Id");
    }

    [Fact]
    public async Task A_language_outside_the_documented_enum_is_refused()
    {
        var host = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2);

        await AssertInvalidAsync(await host.Client().SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next(), language: "EN")), "language");
    }

    // Kestrel answered a header value that is not UTF-8 with a bare 400 before the API saw it.
    [Fact]
    public async Task Regression_a_header_that_is_not_utf8_got_an_empty_400()
    {
        var host = await StartAsync();
        var address = new Uri(host.Client().BaseAddress!, "/");
        using var tcp = new TcpClient();
        await tcp.ConnectAsync(address.Host, address.Port, TestContext.Current.CancellationToken);
        var stream = tcp.GetStream();
        byte[] request =
        [
            .. "GET /api/reservations/ABCD-EFGH HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nSlots-Phone: "u8,
            0xFF, 0xFE, 0x80,
            .. "\r\n\r\n"u8,
        ];
        await stream.WriteAsync(request, TestContext.Current.CancellationToken);
        var answer = await new StreamReader(stream, Encoding.Latin1).ReadToEndAsync(TestContext.Current.CancellationToken);

        Assert.StartsWith("HTTP/1.1 400", answer, StringComparison.Ordinal);
        Assert.Contains("application/problem+json", answer, StringComparison.Ordinal);
        Assert.Contains("Slots-Phone", answer, StringComparison.Ordinal);
    }

    // DELETE /api/admin/places answered 405 with "Allow: GET, HEAD, POST", though a GET there is a 404:
    // the SPA's catch-all GET route was counted among the path's methods.
    [Theory]
    [InlineData("DELETE", "/api/admin/places", "POST")]
    [InlineData("GET", "/api/reservations", "POST")]
    [InlineData("PUT", "/api/reservations/ABCD-EFGH/reschedule", "POST")]
    [InlineData("GET", "/api/admin/slots/generate", "POST")]
    [InlineData("GET", "/api/admin/demo-data", "POST")]
    [InlineData("GET", "/api/waiting-room/openings/1/join", "POST")]
    [InlineData("GET", "/api/admin/openings/1/close", "POST")]
    [InlineData("DELETE", "/api/places", "GET")]
    [InlineData("POST", "/api/places/1/availability", "GET")]
    public async Task Regression_a_405_advertised_the_spas_get_in_its_allow_header(string method, string path, string allowed)
    {
        var client = (await StartAsync()).Client();

        var response = await client.SendAsync(new HttpRequestMessage(new HttpMethod(method), path));

        Assert.Equal(HttpStatusCode.MethodNotAllowed, response.StatusCode);
        Assert.Equal(allowed, string.Join(", ", response.Content.Headers.Allow));
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType!.MediaType);
        Assert.Equal("method-not-allowed", (await JsonAsync(response))["code"]!.GetValue<string>());
    }
}
