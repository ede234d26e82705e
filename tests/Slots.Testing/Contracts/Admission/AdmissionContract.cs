using System.Net;
using System.Net.Http.Json;
using Microsoft.Extensions.DependencyInjection;
using Slots.Admission;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;
using static Slots.Testing.Web.Room;

namespace Slots.Testing.Contracts.Admission;

/// <summary>
/// The waiting room over HTTP against the real host, on every backend. The counters are advanced
/// by calling the job's domain operation directly (the in-process scheduler is off), so each step
/// is the test's own.
/// </summary>
public abstract class AdmissionContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private IReadOnlyDictionary<string, string?>? _settings;

    /// <summary>A host on a fresh database; a second call adds another instance on the same database.</summary>
    protected async Task<(HttpClient Client, HttpClient Admin)> StartAsync()
    {
        _settings ??= await CreateDatabaseAsync("wr");
        var host = NewHost(_settings, new Dictionary<string, string?> { ["Slots:Scheduler:InProcess"] = "false" });
        return (host.Client(), host.AdminClient());
    }

    /// <summary>One run of the job's operation on the first instance; every instance then sees the counters afresh.</summary>
    protected async Task<long> AdvanceAsync(int host = 0)
    {
        var admitted = await Hosts[host].Services.GetRequiredService<ServingCounter>().AdvanceAsync(CancellationToken.None);
        foreach (var each in Hosts)
        {
            each.Services.GetRequiredService<AdmissionView>().Invalidate();
        }
        return admitted;
    }

    private static async Task<HttpResponseMessage> BookAsync(HttpClient client, int place, int slot, Person person, string? token, string? key = null)
    {
        var (day, time) = Slot(slot);
        var request = Reserve(place, day, time, person, key);
        return await client.SendAsync(token is null ? request : WithToken(request, token));
    }

    [Fact]
    public async Task Booking_inside_an_open_opening_needs_an_admitted_token_and_outside_it_works_as_before()
    {
        var (client, admin) = await StartAsync();
        var inside = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var outside = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var opening = await OpenAsync(admin, [inside]);

        var refused = await BookAsync(client, inside, 0, People.Next(), token: null);
        var elsewhere = await BookAsync(client, outside, 0, People.Next(), token: null);

        Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
        var problem = await JsonAsync(refused);
        Assert.Equal("waiting-room-required", problem["code"]!.GetValue<string>());
        Assert.Equal(opening, problem["openingId"]!.GetValue<long>());
        Assert.Equal(1, await FreeSeatsAsync(client, inside, Slot(0).Day, Slot(0).Time));
        Assert.Equal(HttpStatusCode.Created, elsewhere.StatusCode);
    }

    [Fact]
    public async Task A_person_who_joins_twice_keeps_the_first_position()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var opening = await OpenAsync(admin, [place]);
        var person = People.Next();
        await JoinAsync(client, opening, People.Next());

        var first = await JoinAsync(client, opening, person);
        await JoinAsync(client, opening, People.Next());
        var again = await JoinAsync(client, opening, person);

        Assert.Equal(HttpStatusCode.Created, first.Response.StatusCode);
        Assert.Equal(HttpStatusCode.OK, again.Response.StatusCode);
        Assert.Equal(2, Position(first.Status));
        Assert.Equal(2, Position(again.Status));
        Assert.Equal(2, Position(await StatusAsync(client, again.Token)));
        Assert.DoesNotContain(person.NationalId, first.Token, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Status_tells_when_to_ask_again_and_may_be_cached_that_long()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var opening = await OpenAsync(admin, [place]);
        var (token, _, _) = await JoinAsync(client, opening, People.Next());

        var response = await client.SendAsync(StatusRequest(token));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var seconds = (await JsonAsync(response))["askAgainSeconds"]!.GetValue<int>();
        Assert.Equal(TimeSpan.FromSeconds(seconds), response.Headers.RetryAfter!.Delta);
        Assert.True(response.Headers.CacheControl!.Private);
        Assert.Equal(TimeSpan.FromSeconds(seconds), response.Headers.CacheControl.MaxAge);
    }

    [Fact]
    public async Task The_pre_queue_is_shuffled_at_the_opening_and_later_arrivals_are_served_in_order()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var opensAt = DateTimeOffset.UtcNow.AddSeconds(10); // room for 60 joins on a busy 2-core machine: all come before the opening
        var opening = await OpenAsync(admin, [place], opensAt);
        var early = new List<string>();
        for (var i = 0; i < 60; i++)
        {
            var (token, status, _) = await JoinAsync(client, opening, People.Next());
            Assert.Equal("waiting", State(status));
            Assert.Null(Position(status)); // before the opening nobody is ahead of anybody
            early.Add(token);
        }
        var wait = opensAt - DateTimeOffset.UtcNow + TimeSpan.FromMilliseconds(100);
        if (wait > TimeSpan.Zero)
        {
            await Task.Delay(wait);
        }
        await AdvanceAsync();
        var late = new List<long>();
        for (var i = 0; i < 5; i++)
        {
            late.Add(Position((await JoinAsync(client, opening, People.Next())).Status)!.Value);
        }

        var positions = new List<long>();
        foreach (var token in early)
        {
            positions.Add(Position(await StatusAsync(client, token))!.Value);
        }
        Assert.Equal(Enumerable.Range(1, 60).Select(i => (long)i), positions.Order());
        Assert.NotEqual(Enumerable.Range(1, 60).Select(i => (long)i), positions);
        // Arrival order does not predict the position: far from the 1.0 of first come, first served.
        Assert.InRange(Spearman(positions), -0.5, 0.5);
        Assert.Equal([61L, 62, 63, 64, 65], late);
    }

    [Fact]
    public async Task Admission_never_exceeds_the_free_seats_plus_the_allowance_and_a_sold_out_scope_admits_nobody()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1); // 12 seats
        var opening = await OpenAsync(admin, [place], abandonAllowance: 2);
        var people = Enumerable.Range(0, 20).Select(_ => People.Next()).ToList();
        var tokens = new List<string>();
        foreach (var person in people)
        {
            tokens.Add((await JoinAsync(client, opening, person)).Token);
        }

        Assert.Equal(14, await AdvanceAsync());
        Assert.Equal(0, await AdvanceAsync()); // nothing admitted has lapsed or booked: nothing more to admit
        var states = new List<(long Position, string State)>();
        foreach (var token in tokens)
        {
            var status = await StatusAsync(client, token);
            states.Add((Position(status)!.Value, State(status)));
        }
        Assert.Equal(Enumerable.Repeat("admitted", 14).Concat(Enumerable.Repeat("waiting", 6)), states.OrderBy(s => s.Position).Select(s => s.State));

        // The first twelve admitted book every seat; the two of the allowance find none.
        var admitted = await AdmittedAsync(client, tokens);
        for (var i = 0; i < 12; i++)
        {
            Assert.Equal(HttpStatusCode.Created, (await BookAsync(client, place, i, people[admitted[i]], tokens[admitted[i]])).StatusCode);
        }
        Assert.Equal(0, await AdvanceAsync());
        var waiting = tokens.Where((_, i) => !admitted.Contains(i)).ToList();
        foreach (var token in waiting)
        {
            var status = await StatusAsync(client, token);
            Assert.Equal("no-seats-left", State(status));
            Assert.Equal(0, status["seatsLeft"]!.GetValue<long>());
        }
        Assert.Equal(0, await AdvanceAsync());
    }

    [Fact]
    public async Task A_cancellation_reopens_the_room_for_the_next_in_line()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1); // 12 seats
        var opening = await OpenAsync(admin, [place]);
        var people = Enumerable.Range(0, 14).Select(_ => People.Next()).ToList();
        var tokens = new List<string>();
        foreach (var person in people)
        {
            tokens.Add((await JoinAsync(client, opening, person)).Token);
        }
        Assert.Equal(12, await AdvanceAsync());
        string? code = null;
        for (var i = 0; i < 12; i++)
        {
            var booked = await BookAsync(client, place, i, people[i], tokens[i]);
            Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
            code ??= (await JsonAsync(booked))["code"]!.GetValue<string>();
        }
        Assert.Equal(0, await AdvanceAsync());
        Assert.Equal("no-seats-left", State(await StatusAsync(client, tokens[12])));

        var cancelled = await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", people[0].Phone));
        Assert.Equal(HttpStatusCode.NoContent, cancelled.StatusCode);

        Assert.Equal(1, await AdvanceAsync());
        Assert.Equal("admitted", State(await StatusAsync(client, tokens[12])));
        Assert.Equal("waiting", State(await StatusAsync(client, tokens[13]))); // one seat, one admission: the next waits
        Assert.Equal(HttpStatusCode.Created, (await BookAsync(client, place, 0, people[12], tokens[12])).StatusCode);
    }

    [Fact]
    public async Task An_admission_books_once_and_a_retry_of_that_booking_is_answered_as_before()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 2);
        var opening = await OpenAsync(admin, [place]);
        var holder = People.Next();
        var (token, _, _) = await JoinAsync(client, opening, holder);
        await AdvanceAsync();
        var key = Guid.NewGuid().ToString();

        var booked = await BookAsync(client, place, 0, holder, token, key);
        var retried = await BookAsync(client, place, 0, holder, token, key);
        var shared = await BookAsync(client, place, 1, People.Next(), token);

        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        Assert.Equal(HttpStatusCode.Created, retried.StatusCode);
        Assert.Equal("true", retried.Headers.GetValues("Idempotent-Replayed").Single());
        Assert.Equal(HttpStatusCode.Conflict, shared.StatusCode);
        Assert.Equal("waiting-room-admission-used", await ProblemCodeAsync(shared));
    }

    [Fact]
    public async Task A_booking_that_finds_the_slot_full_gives_the_admission_back()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var opening = await OpenAsync(admin, [place]);
        var (first, second) = (People.Next(), People.Next());
        var firstToken = (await JoinAsync(client, opening, first)).Token;
        var secondToken = (await JoinAsync(client, opening, second)).Token;
        await AdvanceAsync();
        Assert.Equal(HttpStatusCode.Created, (await BookAsync(client, place, 0, first, firstToken)).StatusCode);

        var full = await BookAsync(client, place, 0, second, secondToken);
        var other = await BookAsync(client, place, 1, second, secondToken);

        Assert.Equal("slot-full", await ProblemCodeAsync(full));
        Assert.Equal(HttpStatusCode.Created, other.StatusCode);
    }

    [Fact]
    public async Task An_admission_not_used_in_time_is_refused_and_frees_its_share_for_the_next_in_line()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1); // 12 seats
        var opening = await OpenAsync(admin, [place], admissionSeconds: 1);
        var people = Enumerable.Range(0, 13).Select(_ => People.Next()).ToList();
        var tokens = new List<string>();
        foreach (var person in people)
        {
            tokens.Add((await JoinAsync(client, opening, person)).Token);
        }
        Assert.Equal(12, await AdvanceAsync());
        Assert.Equal(0, await AdvanceAsync());

        await Task.Delay(TimeSpan.FromSeconds(1.5));
        Assert.Equal(1, await AdvanceAsync());

        Assert.Equal("expired", State(await StatusAsync(client, tokens[0])));
        var late = await BookAsync(client, place, 0, people[0], tokens[0]);
        Assert.Equal(HttpStatusCode.Forbidden, late.StatusCode);
        Assert.Equal("waiting-room-admission-expired", await ProblemCodeAsync(late));
        Assert.Equal("admitted", State(await StatusAsync(client, tokens[12])));
    }

    [Fact]
    public async Task Forged_tampered_cross_scope_and_not_yet_admitted_tokens_are_refused_and_write_nothing()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var otherPlace = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var opening = await OpenAsync(admin, [place]);
        var otherOpening = await OpenAsync(admin, [otherPlace]);
        var person = People.Next();
        var (token, _, _) = await JoinAsync(client, opening, person);
        var (waitingToken, _, _) = await JoinAsync(client, opening, People.Next());
        var (foreign, _, _) = await JoinAsync(client, otherOpening, person);
        // The place moves to a new opening that admits one person per 100 s.
        await admin.PostAsync($"/api/admin/openings/{opening}/close", null);
        var reopened = await OpenAsync(admin, [place], admitPerSecond: 0.01);
        var (rateToken, _, _) = await JoinAsync(client, reopened, person);
        var (rateWaiting, _, _) = await JoinAsync(client, reopened, People.Next());
        await AdvanceAsync(); // one admission per 100 s: the first in line
        var tampered = (rateToken[..5] == "AAAAA" ? "BBBBB" : "AAAAA") + rateToken[5..];

        var forged = await BookAsync(client, place, 0, person, "bm90LWEtdG9rZW4.c2lnbmF0dXJl");
        var changed = await BookAsync(client, place, 0, person, tampered);
        var crossScope = await BookAsync(client, place, 0, person, foreign);
        var closedOpening = await BookAsync(client, place, 0, person, token);
        var notYet = await BookAsync(client, place, 0, People.Next(), rateWaiting);

        Assert.Equal("waiting-room-required", await ProblemCodeAsync(forged));
        Assert.Equal("waiting-room-required", await ProblemCodeAsync(changed));
        Assert.Equal("waiting-room-required", await ProblemCodeAsync(crossScope));
        Assert.Equal("waiting-room-required", await ProblemCodeAsync(closedOpening));
        Assert.Equal(HttpStatusCode.Forbidden, notYet.StatusCode);
        Assert.Equal("waiting-room-not-admitted", await ProblemCodeAsync(notYet));
        Assert.NotNull(notYet.Headers.RetryAfter);
        Assert.Equal(1, await FreeSeatsAsync(client, place, Slot(0).Day, Slot(0).Time));
        var badStatus = await client.SendAsync(StatusRequest(tampered));
        Assert.Equal(HttpStatusCode.Unauthorized, badStatus.StatusCode);
        Assert.Equal("waiting-room-token-invalid", await ProblemCodeAsync(badStatus));
        Assert.Equal("closed", State(await StatusAsync(client, waitingToken)));
        Assert.Equal(HttpStatusCode.Created, (await BookAsync(client, place, 0, person, rateToken)).StatusCode);
    }

    [Fact]
    public async Task A_token_issued_by_one_instance_is_honoured_by_another()
    {
        var (clientA, adminA) = await StartAsync();
        var (clientB, _) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(adminA, capacity: 1);
        var opening = await OpenAsync(adminA, [place]);
        var person = People.Next();
        await JoinAsync(clientB, opening, People.Next());

        var (token, joined, _) = await JoinAsync(clientA, opening, person);
        await AdvanceAsync(host: 1);

        Assert.Equal(2, Position(joined));
        var seenByB = await StatusAsync(clientB, token);
        Assert.Equal("admitted", State(seenByB));
        Assert.Equal(2, Position(seenByB));
        Assert.Equal(HttpStatusCode.Created, (await BookAsync(clientB, place, 0, person, token)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await JoinAsync(clientB, opening, person)).Response.StatusCode);
    }

    [Fact]
    public async Task Two_nodes_advancing_at_once_never_both_move_a_counter()
    {
        var (client, admin) = await StartAsync();
        await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1); // 12 seats
        var otherPlace = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var opening = await OpenAsync(admin, [place]);
        var other = await OpenAsync(admin, [otherPlace]);
        for (var i = 0; i < 30; i++)
        {
            await JoinAsync(client, opening, People.Next());
            await JoinAsync(client, other, People.Next());
        }
        var stores = Stores();

        // Whole job runs on both instances at once admit no more than the seats.
        var admitted = await Task.WhenAll(Enumerable.Range(0, 10).Select(i => AdvanceAsync(i % 2)));
        Assert.Equal(24, admitted.Sum());
        Assert.Equal(12, (await stores[1].FindAsync(opening, CancellationToken.None))!.Served);
        Assert.Equal(12, await stores[0].OutstandingAsync(opening, DateTimeOffset.UtcNow.AddMinutes(-1), CancellationToken.None));

        // Two nodes that read the same counter and each decide a step: one is written.
        var seen = (await stores[0].FindAsync(other, CancellationToken.None))!;
        var now = DateTimeOffset.UtcNow;
        var steps = await Task.WhenAll(stores.Select(s =>
            s.StepAsync(new CounterStep(other, seen.Version, seen.Served, seen.Served + 5, 12, 0, now), CancellationToken.None)));
        Assert.Single(steps, moved => moved);
        Assert.Equal(seen.Served + 5, (await stores[1].FindAsync(other, CancellationToken.None))!.Served);
    }

    [Fact]
    public async Task Closing_an_opening_lets_booking_work_as_before_and_tells_the_waiting_so()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var opening = await OpenAsync(admin, [place]);
        var (token, _, _) = await JoinAsync(client, opening, People.Next());

        var closed = await admin.PostAsync($"/api/admin/openings/{opening}/close", null);
        var again = await admin.PostAsync($"/api/admin/openings/{opening}/close", null);
        var join = await client.PostAsJsonAsync($"/api/waiting-room/openings/{opening}/join", new { nationalId = People.Next().NationalId });

        Assert.Equal(HttpStatusCode.OK, closed.StatusCode);
        Assert.Equal("opening-closed", await ProblemCodeAsync(again));
        Assert.Equal("opening-closed", await ProblemCodeAsync(join));
        Assert.Equal("closed", State(await StatusAsync(client, token)));
        Assert.Equal(HttpStatusCode.Created, (await BookAsync(client, place, 0, People.Next(), token: null)).StatusCode);
    }

    [Fact]
    public async Task An_opening_that_overlaps_an_open_one_is_refused_and_staff_keys_are_needed()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var opening = await OpenAsync(admin, [place]);

        var overlapping = await admin.PostAsJsonAsync("/api/admin/openings", new { placeIds = new[] { place }, opensAt = DateTimeOffset.UtcNow });
        var anonymous = await client.PostAsJsonAsync("/api/admin/openings", new { placeIds = new[] { place }, opensAt = DateTimeOffset.UtcNow });
        var unknownJoin = await client.PostAsJsonAsync("/api/waiting-room/openings/999999/join", new { nationalId = People.Next().NationalId });

        Assert.Equal(HttpStatusCode.Conflict, overlapping.StatusCode);
        Assert.Equal(opening, (await JsonAsync(overlapping))["openingId"]!.GetValue<long>());
        Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        Assert.Equal("opening-not-found", await ProblemCodeAsync(unknownJoin));
    }

    private List<IAdmissionStore> Stores() =>
        Hosts.Select(h => h.Services.GetRequiredService<IAdmissionStore>()).ToList();

    /// <summary>Indices of the tokens whose status says admitted, in position order.</summary>
    private static async Task<List<int>> AdmittedAsync(HttpClient client, List<string> tokens)
    {
        var admitted = new List<(int Index, long Position)>();
        for (var i = 0; i < tokens.Count; i++)
        {
            var status = await StatusAsync(client, tokens[i]);
            if (State(status) == "admitted")
            {
                admitted.Add((i, Position(status)!.Value));
            }
        }
        return admitted.OrderBy(a => a.Position).Select(a => a.Index).ToList();
    }

    private static double Spearman(List<long> positions)
    {
        var n = positions.Count;
        var d2 = positions.Select((p, i) => Math.Pow(p - (i + 1), 2)).Sum();
        return 1 - (6 * d2 / (n * ((double)n * n - 1)));
    }
}
