using System.Net;
using System.Net.Http.Json;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.WaitingList;

/// <summary>
/// The waiting list at a two-dose service, on every backend: a claim books the held seat and the
/// second dose in its interval as a booking there does, both or neither. With no seat for the second
/// dose nothing is booked, the seat stays held for the same person, and a claim once a second seat
/// exists books the pair.
/// </summary>
public abstract class WaitingListPairContract<TBackend>(TBackend backend) : WaitingListHarness<TBackend>(backend)
    where TBackend : class, IBackend
{
    private static readonly DateOnly FirstDay = Today.AddDays(2);

    /// <summary>
    /// A sold-out place whose service then takes two doses 3 to 5 days apart, a person in line and
    /// the 08:10 booking cancelled and offered to them: (place, the person's token).
    /// </summary>
    private async Task<(int Place, string Token)> OfferedAsync()
    {
        await StartAsync();
        var (place, booked) = await SoldOutAsync(FirstDay);
        await TwoDosesAsync(Host.AdminClient(), 3, 5);
        var token = await JoinAsync(place, FirstDay, People.Next());
        Assert.Equal(HttpStatusCode.NoContent, (await CancelAsync(booked[1])).StatusCode);
        await StepAsync();
        Assert.Equal("offered", (await EntryAsync(token))["state"]!.GetValue<string>());
        return (place, token);
    }

    private Task SecondDaySlotsAsync(int place, DateOnly day) => GenerateSlotsAsync(Host.AdminClient(), place, day, day, 1);

    private Task<HttpResponseMessage> ClaimAsync(string token) => Host.Client().SendAsync(Entry(HttpMethod.Post, token, "/claim"));

    [Fact]
    public async Task A_claim_books_the_held_seat_and_the_earliest_second_dose_in_its_interval_as_one_pair()
    {
        var (place, token) = await OfferedAsync();
        var secondDay = FirstDay.AddDays(4); // day 3 has no slots: the earliest in the interval with one is day 4
        await SecondDaySlotsAsync(place, secondDay);
        await SecondDaySlotsAsync(place, FirstDay.AddDays(5));

        var claimed = await ClaimAsync(token);
        var again = await ClaimAsync(token);

        Assert.Equal(HttpStatusCode.Created, claimed.StatusCode);
        var body = await JsonAsync(claimed);
        var code = body["code"]!.GetValue<string>();
        Assert.Equal(("08:10", Day(secondDay), "08:10"),
            (body["time"]!.GetValue<string>(), body["secondDose"]!["day"]!.GetValue<string>(), body["secondDose"]!["time"]!.GetValue<string>()));
        // A claim again answers the same pair.
        Assert.Equal(HttpStatusCode.Created, again.StatusCode);
        var replay = await JsonAsync(again);
        Assert.Equal((code, Day(secondDay)), (replay["code"]!.GetValue<string>(), replay["secondDose"]!["day"]!.GetValue<string>()));
        Assert.Equal(0, await FreeSeatsAsync(Host.Client(), place, secondDay, "08:10"));
        Assert.Equal(1, await FreeSeatsAsync(Host.Client(), place, FirstDay.AddDays(5), "08:10"));
        Assert.Equal(1, await Rows.CountAsync("SELECT COUNT(*) FROM dose_pairs WHERE first_code = @code", ("@code", code)));
    }

    [Fact]
    public async Task With_no_seat_for_the_second_dose_nothing_is_booked_the_seat_stays_held_and_a_later_claim_books_the_pair()
    {
        var (place, token) = await OfferedAsync();
        var bookingsBefore = await Rows.CountAsync("SELECT COUNT(*) FROM hot_reservations WHERE place_id = @place", ("@place", place));

        var refused = await ClaimAsync(token);

        Assert.Equal(HttpStatusCode.Conflict, refused.StatusCode);
        Assert.Equal("second-dose-full", await ProblemCodeAsync(refused));
        var entry = await EntryAsync(token);
        Assert.Equal(("offered", "08:10"), (entry["state"]!.GetValue<string>(), entry["offer"]!["time"]!.GetValue<string>()));
        Assert.Equal(bookingsBefore, await Rows.CountAsync("SELECT COUNT(*) FROM hot_reservations WHERE place_id = @place", ("@place", place)));
        Assert.Equal(0, await Rows.CountAsync("SELECT COUNT(*) FROM dose_pairs"));
        // Still held for this person: nobody else can book it.
        Assert.Equal("slot-full", await ProblemCodeAsync(await Host.Client().SendAsync(Reserve(place, FirstDay, "08:10", People.Next()))));

        var secondDay = FirstDay.AddDays(3);
        await SecondDaySlotsAsync(place, secondDay);
        var claimed = await ClaimAsync(token);

        Assert.Equal(HttpStatusCode.Created, claimed.StatusCode);
        Assert.Equal(Day(secondDay), (await JsonAsync(claimed))["secondDose"]!["day"]!.GetValue<string>());
        Assert.Equal("booked", (await EntryAsync(token))["state"]!.GetValue<string>());
    }
}
