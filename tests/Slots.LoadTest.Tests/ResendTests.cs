using System.Net;
using System.Text;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Tests;

/// <summary>
/// A booking whose connection closes before any answer is sent again at once with the same Idempotency-Key, as a
/// browser does on a kept-alive connection, and counted apart; a second such close is "no answer", as before.
/// </summary>
public sealed class ResendTests
{
    [Fact]
    public async Task A_booking_whose_connection_closed_unanswered_is_sent_again_at_once_with_its_key_and_not_counted_unanswered()
    {
        var handler = new Scripted(closesFirst: 1);
        var recorder = new Recorder();

        // 450 ms to give up in: a back-off after no answer (0.5 s at least) would end the visit unbooked.
        var outcome = await BookAsync(handler, recorder, TimeSpan.FromMilliseconds(450));

        Assert.Equal(UserOutcome.Booked, outcome);
        Assert.Equal(2, handler.Keys.Count);
        Assert.Single(handler.Keys.Distinct());
        Assert.Equal(new Dictionary<string, long> { [$"reserve: {Answers.ResentAtOnce}"] = 1 }, recorder.Errors);
    }

    [Fact]
    public async Task A_resend_whose_connection_closes_unanswered_again_is_no_answer()
    {
        var handler = new Scripted(closesFirst: 2);
        var recorder = new Recorder();

        var outcome = await BookAsync(handler, recorder, TimeSpan.FromSeconds(20));

        Assert.Equal(UserOutcome.Booked, outcome);
        Assert.Equal(3, handler.Keys.Count);
        Assert.Single(handler.Keys.Distinct());
        Assert.Equal(1, recorder.Errors[$"reserve: {Answers.ResentAtOnce}"]);
        Assert.Equal(1, recorder.Errors["reserve: no answer: ResponseEnded"]);
    }

    private static async Task<UserOutcome> BookAsync(Scripted handler, Recorder recorder, TimeSpan giveUp)
    {
        using var client = new HttpClient(handler);
        var options = new SimulationOptions
        {
            Targets = [new Uri("http://127.0.0.1:9")],
            Flow = Flow.Reserve,
            GiveUp = giveUp,
            MaxJitter = TimeSpan.FromMilliseconds(1),
        };
        var catalog = new Catalog([new PlaceItem(1, "Place", "Europe/Bratislava", true)], ["09:00"], new DateOnly(2026, 11, 23), 1, 1, 1.0);
        await new VirtualUser(0, options, catalog, client, options.Targets[0], recorder).RunAsync(CancellationToken.None);
        return Assert.Single(recorder.Outcomes, o => o.Value > 0).Key;
    }

    /// <summary>Closes the first <c>closesFirst</c> bookings' connections before an answer, then books.</summary>
    private sealed class Scripted(int closesFirst) : HttpMessageHandler
    {
        private readonly List<string> _sent = [];

        public IReadOnlyList<string> Keys
        {
            get
            {
                lock (_sent)
                {
                    return [.. _sent];
                }
            }
        }

        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            int count;
            lock (_sent)
            {
                _sent.Add(request.Headers.GetValues("Idempotency-Key").Single());
                count = _sent.Count;
            }
            if (count <= closesFirst)
            {
                throw new HttpRequestException(HttpRequestError.ResponseEnded, "The response ended prematurely.");
            }
            return Task.FromResult(new HttpResponseMessage(HttpStatusCode.Created)
            {
                Content = new StringContent("""{"code":"ABCD-2345","placeId":1,"day":"2026-11-23","time":"09:00"}""", Encoding.UTF8, "application/json"),
            });
        }
    }
}
