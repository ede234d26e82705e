using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Tests;

public sealed class ServerTimingsTests
{
    private const string Booked = """127.0.0.5:46667 [23/Nov/2026:22:23:39.292] slots api/api1 0/0/0/2/17 201 383 - - ---- 8/8/0/0/0 0/0 "POST /api/reservations HTTP/1.1" """;
    private const string Full = """127.0.0.3:34017 [23/Nov/2026:22:23:39.281] slots api/api3 0/4/0/3/9 409 705 - - ---- 8/8/0/0/0 0/0 "POST /api/reservations HTTP/1.1" """;
    private const string Limited = """127.0.0.9:40001 [23/Nov/2026:22:23:39.300] slots slots/<NOSRV> 0/-1/-1/-1/0 429 212 - - PR-- 8/8/0/0/0 0/0 "POST /api/reservations HTTP/1.1" """;
    private const string Week = """127.0.0.2:40002 [23/Nov/2026:22:23:39.301] slots api/api2 0/0/0/3/3 200 9012 - - ---- 8/8/0/0/0 0/0 "GET /api/places/12/availability?from=2026-11-24&to=2026-11-30 HTTP/1.1" """;
    // HTTPS (the frontend logged as "slots~") and HTTP/2: HAProxy logs the absolute URI.
    private const string BookedOverH2 = """127.0.0.5:46668 [27/Nov/2026:02:48:05.969] slots~ api/api2 0/0/0/2/12 201 383 - - ---- 8/8/0/0/0 0/0 "POST https://127.0.0.1:8443/api/reservations HTTP/2.0" """;
    private const string Stats = """127.0.0.1:57522 [23/Nov/2026:22:23:39.922] stats stats/<STATS> 0/0/0/0/0 200 3321 - - LR-- 9/1/0/0/0 0/0 "GET /stats;csv HTTP/1.1" """;

    [Fact]
    public void A_proxy_log_line_gives_the_answer_kind_its_status_and_the_total_active_time()
    {
        Assert.Equal(("reserve 201", 17.0), ServerTimings.ParseProxyLine(Booked));
        Assert.Equal(("reserve 409", 9.0), ServerTimings.ParseProxyLine(Full));
        Assert.Equal(("reserve 429 at the proxy", 0.0), ServerTimings.ParseProxyLine(Limited));
        Assert.Equal(("availability 200", 3.0), ServerTimings.ParseProxyLine(Week));
        Assert.Equal(("reserve 201", 12.0), ServerTimings.ParseProxyLine(BookedOverH2));
        Assert.Null(ServerTimings.ParseProxyLine(Stats));
        Assert.Null(ServerTimings.ParseProxyLine("[NOTICE]   (1234) : haproxy version is 2.6.12"));
    }

    [Theory]
    [InlineData("POST", "/api/benchmark/reservations", "reserve")]
    [InlineData("POST", "/api/benchmark/noop", "reserve")]
    [InlineData("POST", "/api/waiting-room/openings/7/join", "join")]
    [InlineData("GET", "/api/waiting-room/status", "status")]
    [InlineData("GET", "/api/reservations/ABCDE-FGHJK", "other")]
    public void Requests_are_named_as_the_generator_names_them(string method, string path, string kind) =>
        Assert.Equal(kind, ServerTimings.Kind(method, path));

    [Fact]
    public async Task Only_the_lines_written_after_the_mark_count()
    {
        var log = Path.GetTempFileName();
        try
        {
            await File.WriteAllLinesAsync(log, [Booked, Booked], TestContext.Current.CancellationToken);
            var mark = ServerTimings.Mark(log);
            await File.AppendAllLinesAsync(log, [Full, Limited, Stats, Booked], TestContext.Current.CancellationToken);

            var answers = await ServerTimings.FromProxyLogAsync(log, mark, TestContext.Current.CancellationToken);

            Assert.Equal(["reserve 201", "reserve 409", "reserve 429 at the proxy"], answers.Keys);
            Assert.Equal(1, answers["reserve 201"].Count);
            Assert.Equal(9, answers["reserve 409"].P99);
        }
        finally
        {
            File.Delete(log);
        }
    }

    [Fact]
    public async Task A_log_started_again_since_the_mark_is_read_from_its_start()
    {
        var log = Path.GetTempFileName();
        try
        {
            await File.WriteAllLinesAsync(log, [Booked, Booked, Booked], TestContext.Current.CancellationToken);
            var mark = ServerTimings.Mark(log);
            await File.WriteAllLinesAsync(log, [Full], TestContext.Current.CancellationToken);

            var answers = await ServerTimings.FromProxyLogAsync(log, mark, TestContext.Current.CancellationToken);

            Assert.Equal(["reserve 409"], answers.Keys);
        }
        finally
        {
            File.Delete(log);
        }
    }

    [Fact]
    public void Histogram_percentiles_are_the_upper_bound_of_the_bucket_they_fall_in_counting_only_what_came_between_the_scrapes()
    {
        static string Scrape(long fast, long slow) => $$"""
            # TYPE slots_api_reservation_duration_seconds histogram
            slots_api_reservation_duration_seconds_bucket{otel_scope_name="Slots.Api",operation="reserve",outcome="reserved",le="0.005"} {{fast}} 1700000000000
            slots_api_reservation_duration_seconds_bucket{otel_scope_name="Slots.Api",operation="reserve",outcome="reserved",le="0.1"} {{fast + slow}} 1700000000000
            slots_api_reservation_duration_seconds_bucket{otel_scope_name="Slots.Api",operation="reserve",outcome="reserved",le="+Inf"} {{fast + slow}} 1700000000000
            slots_api_reservation_duration_seconds_sum{otel_scope_name="Slots.Api",operation="reserve",outcome="reserved"} 1.5 1700000000000
            """;
        var before = ServerTimings.ParseMetrics(Scrape(fast: 500, slow: 500));
        var after = ServerTimings.ParseMetrics(Scrape(fast: 500 + 990, slow: 500 + 10));

        var stats = ServerTimings.Between(before, after)["reserve reserved"];

        Assert.Equal(1000, stats.Count);
        Assert.Equal(5, stats.P50);
        Assert.Equal(5, stats.P99);
        Assert.Equal(100, stats.Max);
    }

    [Fact]
    public void Availability_reads_are_read_from_their_own_histogram_kept_apart_from_built_ones()
    {
        static string Scrape(long kept, long built) => $$"""
            # TYPE slots_api_availability_duration_seconds histogram
            slots_api_availability_duration_seconds_bucket{otel_scope_name="Slots.Api",operation="availability",outcome="kept",le="0.0005"} {{kept}} 1700000000000
            slots_api_availability_duration_seconds_bucket{otel_scope_name="Slots.Api",operation="availability",outcome="kept",le="+Inf"} {{kept}} 1700000000000
            slots_api_availability_duration_seconds_bucket{otel_scope_name="Slots.Api",operation="availability",outcome="built",le="0.004"} {{built}} 1700000000000
            slots_api_availability_duration_seconds_bucket{otel_scope_name="Slots.Api",operation="availability",outcome="built",le="+Inf"} {{built}} 1700000000000
            """;

        var answers = ServerTimings.Between(ServerTimings.ParseMetrics(Scrape(10, 2)), ServerTimings.ParseMetrics(Scrape(110, 7)));

        Assert.Equal(["availability built", "availability kept"], answers.Keys);
        Assert.Equal(100, answers["availability kept"].Count);
        Assert.Equal(0.5, answers["availability kept"].P99);
        Assert.Equal(5, answers["availability built"].Count);
        Assert.Equal(4, answers["availability built"].P99);
        Assert.Equal("; availability at the server: kept p50 0.50 ms, p99 0.50 ms over 100; built p50 4.00 ms, p99 4.00 ms over 5",
            Summary.AvailabilityAtServer(new ServerLatency(ServerTimings.HistogramSource, answers)));
    }
}
