using Slots.LoadTest.Data;
using Slots.LoadTest.Reporting;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Tests;

/// <summary>
/// The simulator against the real host for a few seconds: not a measurement (speed is measured
/// by ./slots bench), but proof that the crowd books, the report counts, and the audit finds
/// every confirmation in the database and no seat or person twice.
/// </summary>
public sealed class SmokeTests
{
    // 3 places × 2 days × 4 times × 3 seats: small, so the popular slots fill and users race for the last seats.
    internal static readonly SeedOptions Small = new(Places: 3, Days: 3, FirstMinute: 8 * 60, LastMinute: 8 * 60 + 45, Interval: 15, Length: 15, Capacity: 3, Zone: "Europe/Bratislava");

    internal static SimulationOptions Crowd(Uri target, Endpoint endpoint, Flow flow) => new()
    {
        Targets = [target],
        Scenario = $"smoke-{endpoint}",
        Endpoint = endpoint,
        Flow = flow,
        Mode = Mode.Open,
        Duration = TimeSpan.FromSeconds(3),
        Arrivals = new ArrivalCurve(20, TimeSpan.FromSeconds(1), 120),
        MaxInFlight = 64,
        GiveUp = TimeSpan.FromSeconds(6),
        RequestTimeout = TimeSpan.FromSeconds(5),
        MaxJitter = TimeSpan.FromMilliseconds(200),
        Sources = 16,
        HotPlaces = 2,
        HotDays = 1,
        Seed = 42,
    };

    [Theory]
    [InlineData(Endpoint.Reserve, Flow.Spa)]
    [InlineData(Endpoint.Reserve, Flow.Reserve)]
    [InlineData(Endpoint.Baseline, Flow.Reserve)]
    public async Task A_short_stampede_books_seats_and_the_audit_finds_every_confirmation_and_no_double_booking(Endpoint endpoint, Flow flow)
    {
        await using var host = new ApiHost();
        var target = host.Start();
        var seeded = await Seeder.RunAsync(Provider.Sqlite, host.ConnectionString, Small, TestContext.Current.CancellationToken);

        var report = await Cli.SimulateAsync(Crowd(target, endpoint, flow), (Provider.Sqlite, host.ConnectionString), [("api", Environment.ProcessId)], TestContext.Current.CancellationToken);

        Assert.Equal(3 * 3 * 4 * 3, seeded.Seats);
        Assert.True(report.Confirmed > 0, report.ToTable());
        Assert.True(report.Latency["reserve 201"].P99 > 0, report.ToTable());
        Assert.DoesNotContain(report.Errors.Keys, k => k.Contains("HTTP 5", StringComparison.Ordinal) || k.Contains("no answer", StringComparison.Ordinal));
        var audit = report.Audit!;
        Assert.True(audit.Passed, report.ToTable());
        Assert.Equal(report.Confirmed, audit.Confirmations);
        Assert.Equal(0, audit.MissingConfirmations);
        Assert.Equal(0, audit.SharedSeats);
        Assert.Equal(audit.HotReservations, audit.ReservedOutboxRows);
        Assert.True(report.Processes.First(p => p.Role == "api").MaxRssMb > 0);
    }

    [Fact]
    public async Task A_reset_gives_the_next_scenario_the_seeded_supply_and_the_same_people_book_again()
    {
        await using var host = new ApiHost();
        var target = host.Start();
        var ct = TestContext.Current.CancellationToken;
        var seeded = await Seeder.RunAsync(Provider.Sqlite, host.ConnectionString, Small, ct);
        var first = await Cli.SimulateAsync(Crowd(target, Endpoint.Reserve, Flow.Reserve), (Provider.Sqlite, host.ConnectionString), [], ct);

        var reset = await SeededState.RestoreAsync(Provider.Sqlite, host.ConnectionString, ct);

        Assert.True(first.Confirmed > 0, first.ToTable());
        Assert.Equal(first.Confirmed, reset.Reservations);
        Assert.Equal(first.Confirmed, reset.SeatsFreed);
        await using (var db = await Database.OpenAsync(Provider.Sqlite, host.ConnectionString, ct))
        {
            Assert.Equal(seeded.Seats, await Database.ScalarAsync(db, "SELECT count(*) FROM hot_seats WHERE code IS NULL", ct));
            foreach (var table in new[] { "hot_reservations", "active_persons", "idempotency", "outbox", "changes" })
            {
                Assert.Equal(0, await Database.ScalarAsync(db, $"SELECT count(*) FROM {table}", ct));
            }
        }
        await Task.Delay(TimeSpan.FromSeconds(1.5), ct); // the availability snapshot's age
        // The same seed: the same people aim at the same slots, and book as if nothing had happened before.
        var second = await Cli.SimulateAsync(Crowd(target, Endpoint.Reserve, Flow.Reserve), (Provider.Sqlite, host.ConnectionString), [], ct);
        Assert.True(second.Confirmed > 0, second.ToTable());
        Assert.True(second.Audit!.Passed, second.ToTable());
        Assert.Equal(second.Confirmed, second.Audit.HotReservations);
    }

    [Fact]
    public async Task The_audit_notices_a_confirmation_the_database_does_not_hold()
    {
        await using var host = new ApiHost();
        host.Start();
        await Seeder.RunAsync(Provider.Sqlite, host.ConnectionString, Small, TestContext.Current.CancellationToken);

        var audit = await Audit.RunAsync(Provider.Sqlite, host.ConnectionString,
            [new Confirmation("ABCDE-FGHJK", 1, "2030-01-01", "08:00", 0)], TestContext.Current.CancellationToken);

        Assert.False(audit.Passed);
        Assert.Equal(1, audit.MissingConfirmations);
    }

    [Fact]
    public async Task Users_told_to_wait_by_429_retry_after_it_with_the_same_key_and_still_book()
    {
        // Two writes per client per 2 s window from 4 addresses: most of the crowd is told to wait.
        await using var host = new ApiHost(writesPerWindow: 2);
        var target = host.Start();
        await Seeder.RunAsync(Provider.Sqlite, host.ConnectionString, Small with { Capacity = 20 }, TestContext.Current.CancellationToken);
        var options = Crowd(target, Endpoint.Reserve, Flow.Reserve) with { Sources = 4, Arrivals = new ArrivalCurve(10, TimeSpan.FromSeconds(1), 40) };

        var report = await Cli.SimulateAsync(options, (Provider.Sqlite, host.ConnectionString), [], TestContext.Current.CancellationToken);

        Assert.True(report.Statuses.GetValueOrDefault("reserve 429") > 0, report.ToTable());
        Assert.True(report.Confirmed > 0, report.ToTable());
        Assert.True(report.Audit!.Passed, report.ToTable());
        Assert.Equal(0, report.Audit.PersonsWithTwoActive);
        Assert.True(report.Latency["reserve 429"].Max > 0);
    }

    [Fact]
    public async Task The_noop_endpoint_answers_without_touching_the_database()
    {
        await using var host = new ApiHost();
        var target = host.Start();
        await Seeder.RunAsync(Provider.Sqlite, host.ConnectionString, Small, TestContext.Current.CancellationToken);

        var report = await Cli.SimulateAsync(Crowd(target, Endpoint.Noop, Flow.Reserve), (Provider.Sqlite, host.ConnectionString), [], TestContext.Current.CancellationToken);

        Assert.True(report.Statuses.GetValueOrDefault("reserve 204") > 0, report.ToTable());
        Assert.Equal(0, report.Audit!.HotReservations);
        Assert.True(report.GoodputPerSecond > 0);
    }
}
