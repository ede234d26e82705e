using System.Globalization;
using System.Text.RegularExpressions;

namespace Slots.Topology.Run;

/// <summary>One line of key figures from a host's Prometheus text (/metrics, which loopback callers read with no
/// key): bookings by outcome, requests shed by reason, outbox depth, flush lag, SMS sent, retried and
/// dead-lettered, counted since the process started.</summary>
public static partial class Metrics
{
    public static string Figures(string prometheus)
    {
        var booked = new SortedDictionary<string, double>(StringComparer.Ordinal);
        var shed = new SortedDictionary<string, double>(StringComparer.Ordinal);
        string? outbox = null, lag = null;
        double sent = 0, retried = 0, dead = 0;
        var any = false;
        foreach (var line in prometheus.Split('\n'))
        {
            var sample = Sample().Match(line);
            if (!sample.Success)
            {
                continue;
            }

            var (name, labels, text) = (sample.Groups["name"].Value, sample.Groups["labels"].Value, sample.Groups["value"].Value);
            var value = double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var v) ? v : 0;
            switch (name)
            {
                case "slots_api_reservations_total" when Label(labels, "operation") == "reserve":
                    Add(booked, Label(labels, "outcome"), value);
                    any = true;
                    break;
                case "slots_api_shed_total":
                    Add(shed, Label(labels, "reason"), value);
                    any = true;
                    break;
                case "slots_sms_outbox_depth":
                    (outbox, any) = (text, true);
                    break;
                case "slots_scheduler_flush_lag_seconds":
                    (lag, any) = (text, true);
                    break;
                case "slots_sms_sent_total":
                    (sent, any) = (sent + value, true);
                    break;
                case "slots_sms_retried_total":
                    retried += value;
                    break;
                case "slots_sms_dead_lettered_total":
                    dead += value;
                    break;
            }
        }

        if (!any)
        {
            return "no metrics";
        }

        var figures = $"bookings {Counts(booked)}; shed {Counts(shed)}";
        figures += outbox is null ? "" : $"; outbox {outbox}";
        figures += lag is null ? "" : $"; flush lag {lag} s";
        return figures + string.Create(CultureInfo.InvariantCulture, $"; sms sent={sent} retried={retried} dead={dead}");
    }

    private static void Add(SortedDictionary<string, double> counts, string key, double value) =>
        counts[key] = counts.GetValueOrDefault(key) + value;

    private static string Counts(SortedDictionary<string, double> counts) => counts.Count == 0
        ? "none"
        : string.Join(' ', counts.Select(c => string.Create(CultureInfo.InvariantCulture, $"{c.Key}={c.Value}")));

    private static string Label(string labels, string name)
    {
        var match = Regex.Match(labels, $"(?:^|,){Regex.Escape(name)}=\"(?<v>[^\"]*)\"");
        return match.Success ? match.Groups["v"].Value : "";
    }

    [GeneratedRegex("""^(?<name>slots_[a-z_]+)\{(?<labels>[^}]*)\}\s+(?<value>\S+)""")]
    private static partial Regex Sample();
}
