using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text;
using Microsoft.Extensions.Options;
using Polly;
using Polly.CircuitBreaker;
using Polly.Retry;
using Polly.Timeout;

namespace Slots.Sms.Gateway;

/// <summary>
/// The production sender: POSTs { to, text, reference } to the gateway with an Idempotency-Key
/// header (the outbox message id), so a retried or redelivered SMS is accepted once at the
/// gateway even when our answer got lost. Quick retries with jittered back-off and a circuit
/// breaker here; the long retries are the queue's (delay queues).
/// </summary>
public sealed class HttpGatewaySmsSender : SmsSender
{
    public const string ClientName = "Slots.Sms.Gateway";

    private readonly IHttpClientFactory _clients;
    private readonly HttpGatewayOptions _options;
    private readonly ResiliencePipeline _pipeline;
    private readonly AuthenticationHeaderValue? _authorization;

    public HttpGatewaySmsSender(IHttpClientFactory clients, IOptions<SmsOptions> options, TimeProvider clock)
    {
        _clients = clients;
        _options = options.Value.Http;
        if (_options.Url is null)
        {
            throw new InvalidOperationException($"{SmsOptions.Section}:Http:Url is required when {SmsOptions.Section}:Sender is Http.");
        }
        if (!string.IsNullOrEmpty(_options.Username))
        {
            _authorization = new AuthenticationHeaderValue("Basic",
                Convert.ToBase64String(Encoding.UTF8.GetBytes($"{_options.Username}:{_options.Password}")));
        }
        _pipeline = Pipeline(_options, clock);
    }

    /// <summary>Retry (outermost) → circuit breaker → per-attempt timeout.</summary>
    internal static ResiliencePipeline Pipeline(HttpGatewayOptions options, TimeProvider clock)
    {
        var transient = new PredicateBuilder()
            .Handle<HttpRequestException>()
            .Handle<TimeoutRejectedException>()
            .Handle<GatewayUnavailableException>();
        var builder = new ResiliencePipelineBuilder { TimeProvider = clock };
        if (options.Retries > 0)
        {
            builder.AddRetry(new RetryStrategyOptions
            {
                ShouldHandle = transient,
                MaxRetryAttempts = options.Retries,
                Delay = options.RetryDelay,
                BackoffType = DelayBackoffType.Exponential,
                UseJitter = true,
            });
        }
        return builder
            .AddCircuitBreaker(new CircuitBreakerStrategyOptions
            {
                ShouldHandle = transient,
                FailureRatio = options.BreakFailureRatio,
                MinimumThroughput = 10,
                SamplingDuration = options.BreakSampling,
                BreakDuration = options.BreakDuration,
            })
            .AddTimeout(options.Timeout)
            .Build();
    }

    public override async Task SendAsync(OutgoingSms sms, CancellationToken ct)
    {
        var client = _clients.CreateClient(ClientName);
        await _pipeline.ExecuteAsync(async token =>
        {
            using var request = new HttpRequestMessage(HttpMethod.Post, _options.Url)
            {
                Content = JsonContent.Create(new GatewayRequest(sms.Phone, sms.Text, sms.MessageId.ToString(System.Globalization.CultureInfo.InvariantCulture)),
                    GatewayJsonContext.Default.GatewayRequest),
            };
            request.Headers.Add("Idempotency-Key", sms.MessageId.ToString(System.Globalization.CultureInfo.InvariantCulture));
            request.Headers.Authorization = _authorization;
            using var response = await client.SendAsync(request, token);
            if (response.IsSuccessStatusCode)
            {
                return;
            }
            var status = (int)response.StatusCode;
            if (status is >= 400 and < 500 && response.StatusCode is not (HttpStatusCode.RequestTimeout or HttpStatusCode.TooManyRequests))
            {
                throw new SmsRejectedException(sms.MessageId, $"HTTP {status}");
            }
            throw new GatewayUnavailableException(status);
        }, ct);
    }
}

/// <summary>The gateway's request body.</summary>
internal sealed record GatewayRequest(string To, string Text, string Reference);
