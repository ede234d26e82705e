using Slots.Topology.Run;

namespace Slots.Topology.Tests.Run;

public sealed class MetricsTests
{
    [Fact]
    public void Key_figures_sum_reserve_outcomes_shed_reasons_and_sms_counts_from_prometheus_text()
    {
        const string Text = """
            # TYPE slots_api_reservations_total counter
            slots_api_reservations_total{operation="reserve",outcome="reserved",otel_scope_name="Slots.Api"} 12
            slots_api_reservations_total{operation="reserve",outcome="slot_full",otel_scope_name="Slots.Api"} 30
            slots_api_reservations_total{operation="cancel",outcome="cancelled",otel_scope_name="Slots.Api"} 4
            slots_api_shed_total{reason="overloaded"} 2
            slots_sms_outbox_depth{otel_scope_name="Slots.Scheduler"} 5
            slots_sms_sent_total{channel="file"} 10
            slots_sms_sent_total{channel="http"} 1
            slots_sms_dead_lettered_total{channel="http"} 1
            """;

        Assert.Equal(
            "bookings reserved=12 slot_full=30; shed overloaded=2; outbox 5; sms sent=11 retried=0 dead=1",
            Metrics.Figures(Text));
    }

    [Fact]
    public void A_host_that_counts_nothing_of_ours_has_no_metrics()
    {
        Assert.Equal("no metrics", Metrics.Figures("# EOF\nprocess_cpu_seconds_total 1.5\n"));
        Assert.Equal("bookings none; shed none; flush lag 0.25 s; sms sent=0 retried=0 dead=0",
            Metrics.Figures("slots_scheduler_flush_lag_seconds{job=\"flush\"} 0.25\n"));
    }
}
