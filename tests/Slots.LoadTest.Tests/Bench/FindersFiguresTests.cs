using Slots.LoadTest.Bench;
using Slots.LoadTest.Data;

namespace Slots.LoadTest.Tests.Bench;

/// <summary>./slots bench finders: its knobs, the manifest a finder reads, and the figures read from the crowd, the log and perf.</summary>
public sealed class FindersFiguresTests
{
    [Fact]
    public void Options_default_to_the_scripts_defaults()
    {
        var args = new Args([]);

        var options = FindersOptions.From(args, _ => null);

        Assert.Equal(new FindersOptions(Provider.Postgres, 70, null), options);
        Assert.Equal("postgres", options.ProviderName);
        Assert.Empty(args.Errors);
    }

    [Fact]
    public void The_backend_the_seconds_and_the_perf_file_are_the_scripts_knobs()
    {
        var environment = new Dictionary<string, string> { ["SLOTS_FINDERS_SECONDS"] = "10", ["SLOTS_FINDERS_PERF"] = "/tmp/finders.perf" };

        var options = FindersOptions.From(new Args(["--backend", "sqlite"]), n => environment.GetValueOrDefault(n));

        Assert.Equal(new FindersOptions(Provider.Sqlite, 10, "/tmp/finders.perf"), options);
    }

    [Theory]
    [InlineData("--backend", "mysql")]
    [InlineData("--rounds", "3")]
    public void An_unknown_backend_or_option_is_refused(string name, string value)
    {
        var args = new Args([name, value]);

        FindersOptions.From(args, _ => null);
        args.RejectUnknown();

        Assert.Single(args.Errors);
    }

    [Fact]
    public void Seconds_beyond_the_runs_bound_are_refused()
    {
        var args = new Args([]);

        FindersOptions.From(args, n => n == "SLOTS_FINDERS_SECONDS" ? "601" : null);

        Assert.Contains(args.Errors, e => e.StartsWith("SLOTS_FINDERS_SECONDS", StringComparison.Ordinal));
    }

    [Fact]
    public void A_manifest_gives_the_next_polls_since_and_its_files()
    {
        var manifest = FindersManifest.Parse("""
            {"transactionTime":"2026-03-01T12:00:00.000+00:00","request":"http://127.0.0.1:5080/fhir/$bulk-publish","output":[
              {"type":"Location","url":"http://127.0.0.1:5080/fhir/files/1/locations.ndjson"},
              {"type":"Slot","url":"http://127.0.0.1:5080/fhir/files/1/slots-1.ndjson"}],"error":[]}
            """);

        Assert.Equal("2026-03-01T12:00:00.000+00:00", manifest.TransactionTime);
        Assert.Equal(["http://127.0.0.1:5080/fhir/files/1/locations.ndjson", "http://127.0.0.1:5080/fhir/files/1/slots-1.ndjson"], manifest.Files);
    }

    [Fact]
    public void Decided_answers_are_the_201_and_409_rows_of_the_crowds_table()
    {
        string[] table =
        [
            "== real: reserve endpoint, reserve flow, closed arrivals, 10 s (ran 10.1 s), seed 7, run abc",
            "   answer                        count       p50      p95      p99      max  (ms)",
            "   availability 200                 812      2.10     6.00     9.00    20.00",
            "   reserve 201                     1234      5.00    12.00    20.00    40.00",
            "   reserve 409                       66      4.00     9.00    15.00    30.00",
            "   reserve 429                       10      1.00     1.00     1.00     1.00",
        ];

        Assert.Equal(1300, FindersFigures.DecidedAnswers(table));
    }

    [Fact]
    public void Cpu_per_answer_is_in_microseconds_and_absent_when_nothing_was_decided()
    {
        Assert.Equal(1538.5, FindersFigures.MicrosPerAnswer(2.0, 1300));
        Assert.Null(FindersFigures.MicrosPerAnswer(2.0, 0));
    }

    [Fact]
    public void The_publishers_lines_are_read_from_the_message_on()
    {
        string[] log =
        [
            "info: Slots.Api.Finders.Publisher[1301]",
            "      Published availability for vaccine finders #1: 1000 places, 1020000 slots (1020000 serialized, the rest copied), read in 4.1 s, written in 6.0 s",
            "warn: Microsoft.AspNetCore.Server.Kestrel[0]",
        ];

        Assert.Equal(["Published availability for vaccine finders #1: 1000 places, 1020000 slots (1020000 serialized, the rest copied), read in 4.1 s, written in 6.0 s"],
            FindersFigures.Publications(log));
    }

    [Fact]
    public void The_publications_frames_are_taken_once_each_with_their_share()
    {
        string[] report =
        [
            "# Children      Self  Symbol",
            "    12.50%     0.01%  [.] instance void [Slots.Api] Slots.Api.Finders.Publisher+<PublishAsync>d__12::MoveNext()[OptimizedTier1]",
            "     8.25%     1.00%  [.] void [Slots.Api] Slots.Api.Finders.Publisher::WriteRegion(int)[Optimized]",
            "     8.25%     1.00%  [.] void [Slots.Api] Slots.Api.Finders.Publisher::WriteRegion(int)[Optimized]",
            "    40.00%    40.00%  [k] do_syscall_64",
        ];

        Assert.Equal(
        [
            "  12.50% instance void [Slots.Api] Slots.Api.Finders.Publisher+<PublishAsync>d__12::MoveNext()[OptimizedTier1]",
            "  8.25% void [Slots.Api] Slots.Api.Finders.Publisher::WriteRegion(int)[Optimized]",
        ], FindersFigures.PublicationFrames(report));
    }
}
