using Slots.LoadTest.Data;
using Slots.LoadTest.Room;

namespace Slots.LoadTest.Tests;

/// <summary>
/// The waiting-room stampede against the real host for a few seconds (SQLite, the serving counter
/// running in the API as on the embedded default): not a measurement, but proof that the scenario
/// sets its scene through the staff API, the crowd gets every seat and no more, and the checks pass.
/// </summary>
public sealed class RoomSmokeTests
{
    private const string Key = "loadtest-room-admin-key-0123456789";

    [Fact]
    public async Task A_small_waiting_room_stampede_books_every_seat_and_passes_its_checks()
    {
        await using var host = new ApiHost(settings: new Dictionary<string, string?>
        {
            ["Slots:Admin:Keys:bench:Key"] = Key,
            ["Slots:Admin:Keys:bench:Role"] = "admin",
        });
        var target = host.Start();
        var options = new RoomOptions
        {
            Targets = [target],
            AdminKey = Key,
            Capacity = 1,
            Arrivals = 200,
            ArrivalWindow = TimeSpan.FromSeconds(3),
            PreQueue = TimeSpan.FromSeconds(2),
            AdmitPerSecond = 20,
            AdmissionSeconds = 4,
            AbandonAllowance = 2,
            TimeLimit = TimeSpan.FromSeconds(60),
            Settle = TimeSpan.FromSeconds(2),
            MaxInFlight = 64,
            Sources = 16,
            Seed = 5,
        };

        var report = await Cli.AdmissionAsync(options, (Provider.Sqlite, host.ConnectionString), [], TestContext.Current.CancellationToken);

        TestContext.Current.TestOutputHelper?.WriteLine(report.ToTable());
        Assert.True(report.Passed, report.ToTable());
        Assert.Equal(RoomOptions.TimesPerDay, report.Counts.Bookings);
        Assert.Equal(RoomOptions.TimesPerDay, report.PlaceReservations);
        Assert.True(report.Counts.JoinsAgain > 0, report.ToTable());
        Assert.True(report.Told.Told > 0, report.ToTable());
        Assert.True(report.Samples.Count > 10, report.ToTable());
    }
}
