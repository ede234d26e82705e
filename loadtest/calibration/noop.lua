-- wrk script for the calibration (./slots bench): POST /api/benchmark/noop with the body and headers the
-- generator sends (a booking for tomorrow), and at the end one line "calibration {json}" with the figures.
local day = os.date("!%Y-%m-%d", os.time() + 86400)

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Idempotency-Key"] = "lt-WRKCAL-1-1"
wrk.body = '{"placeId":1,"day":"' .. day .. '","time":"09:00","name":"Load Tester 1",' ..
  '"phone":"+421910000001","nationalId":"WRKCAL000000001","language":"sk"}'

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'calibration {"requests": %d, "seconds": %.3f, "non2xx": %d, "socketErrors": %d, ' ..
    '"p50Ms": %.3f, "p99Ms": %.3f, "maxMs": %.3f}\n',
    summary.requests, summary.duration / 1e6, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
