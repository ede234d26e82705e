using System.Collections.Concurrent;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Slots.Sms.Tests.Infrastructure;

/// <summary>
/// An SMS gateway for the tests: a real HTTP server on a loopback port that records what it is
/// asked to send. Like real gateways it honours Idempotency-Key (a repeated key is answered 200
/// and not delivered again). It can fail (503) for a while, or always for chosen references.
/// </summary>
public sealed class FakeGateway : IAsyncDisposable
{
    private readonly WebApplication _app;
    private readonly ConcurrentDictionary<string, int> _delivered = new();
    private readonly ConcurrentDictionary<string, byte> _alwaysFail = new();
    private readonly ConcurrentDictionary<string, byte> _refused = new();
    private long _failUntilTicks;
    private long _failSpanTicks;
    private int _failures;
    private int _requests;
    private int _repeats;
    private int _failNext;

    private FakeGateway(WebApplication app) => _app = app;

    public Uri Url { get; private set; } = null!;
    public IReadOnlyDictionary<string, int> Delivered => _delivered;
    public int Failures => _failures;
    public int Requests => _requests;

    /// <summary>Requests whose Idempotency-Key had been delivered already.</summary>
    public int Repeats => _repeats;
    public ConcurrentBag<string?> Authorizations { get; } = [];

    public static async Task<FakeGateway> StartAsync()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        var app = builder.Build();
        var gateway = new FakeGateway(app);
        app.MapPost("/send", gateway.HandleAsync);
        await app.StartAsync();
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        gateway.Url = new Uri(new Uri(address), "/send");
        return gateway;
    }

    /// <summary>
    /// Answers 503 to everything for this long, counted from the first request after this call: on
    /// a slow machine the consumer may start seconds later, and an outage that ends before the
    /// first request would test nothing.
    /// </summary>
    public void FailFor(TimeSpan span)
    {
        Interlocked.Exchange(ref _failSpanTicks, span.Ticks);
        Interlocked.Exchange(ref _failUntilTicks, 0);
    }

    /// <summary>Answers 503 to the next <paramref name="requests"/> requests.</summary>
    public void FailNext(int requests) => Interlocked.Exchange(ref _failNext, requests);

    /// <summary>Answers 503 to this message reference, always.</summary>
    public void AlwaysFail(string reference) => _alwaysFail[reference] = 0;

    public void Heal(string reference) => _alwaysFail.TryRemove(reference, out _);

    /// <summary>Answers 400 (a number it will never deliver to) to this message reference.</summary>
    public void Refuse(string reference) => _refused[reference] = 0;

    private async Task<IResult> HandleAsync(HttpRequest request)
    {
        Interlocked.Increment(ref _requests);
        Authorizations.Add(request.Headers.Authorization.ToString());
        var key = request.Headers["Idempotency-Key"].ToString();
        var body = await request.ReadFromJsonAsync<Body>();
        if (string.IsNullOrEmpty(key) || body is null || body.Reference != key)
        {
            return Results.BadRequest();
        }
        if (_refused.ContainsKey(key))
        {
            return Results.BadRequest();
        }
        var span = Interlocked.Exchange(ref _failSpanTicks, 0);
        if (span > 0)
        {
            Interlocked.Exchange(ref _failUntilTicks, DateTime.UtcNow.Ticks + span);
        }
        if (DateTime.UtcNow.Ticks < Interlocked.Read(ref _failUntilTicks) || _alwaysFail.ContainsKey(key) || Interlocked.Decrement(ref _failNext) >= 0)
        {
            Interlocked.Increment(ref _failures);
            return Results.StatusCode(503);
        }
        if (!_delivered.TryAdd(key, 1))
        {
            Interlocked.Increment(ref _repeats); // a repeated key is answered but not delivered again
        }
        return Results.Ok();
    }

    public async Task WaitForAsync(int count, TimeSpan timeout)
    {
        var limit = DateTime.UtcNow + timeout;
        while (_delivered.Count < count)
        {
            Assert.True(DateTime.UtcNow < limit, $"the gateway got {_delivered.Count} of {count} SMS in {timeout.TotalSeconds} s");
            await Task.Delay(50);
        }
    }

    public async ValueTask DisposeAsync() => await _app.DisposeAsync();

    private sealed record Body(string To, string Text, string Reference);
}
