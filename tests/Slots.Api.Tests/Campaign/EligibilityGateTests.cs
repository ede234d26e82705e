using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Slots.Api.Tests.Api;
using Slots.Reservations;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Campaign;

/// <summary>
/// A store whose seat operation does not read the service's rule (SQL Server's native dbo.reserve)
/// has the rule judged by the reservation service from its cached copy just before the seat: the
/// refused never reach the store, the admitted do.
/// </summary>
public sealed class EligibilityGateTests : ApiTestBase
{
    [Fact]
    public async Task A_store_that_does_not_decide_eligibility_never_sees_a_refused_booking()
    {
        var calls = new List<DateOnly?>();
        var host = await StartAsync(services: services =>
        {
            var real = services.Single(d => d.ServiceType == typeof(IReservationStore));
            services.RemoveAll<IReservationStore>();
            services.AddSingleton<IReservationStore>(sp =>
                new RuleBlindStore((IReservationStore)(real.ImplementationFactory?.Invoke(sp) ?? ActivatorUtilities.CreateInstance(sp, real.ImplementationType!)), calls));
        });
        var admin = host.AdminClient();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 5);
        (await admin.PutAsJsonAsync("/api/admin/services/default/eligibility", new
        {
            rule = "age",
            steps = new[] { new { opensAt = DateTimeOffset.UtcNow.AddDays(-1).ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", CultureInfo.InvariantCulture), bornOnOrBefore = "1960-12-31" } },
        })).EnsureSuccessStatusCode();

        var young = await host.Client().SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next() with { NationalId = "8506150004" }));
        var old = await host.Client().SendAsync(Reserve(place, Today.AddDays(2), "08:00", People.Next() with { NationalId = "5503100009" }));

        Assert.Equal(HttpStatusCode.Forbidden, young.StatusCode);
        Assert.Equal("too-young", (await JsonAsync(young))["reason"]!.GetValue<string>());
        Assert.Equal(HttpStatusCode.Created, old.StatusCode);
        Assert.Equal([new DateOnly(1955, 3, 10)], calls); // the admitted one only, with the birth date it was judged by
    }

    private sealed class RuleBlindStore(IReservationStore inner, List<DateOnly?> calls) : IReservationStore
    {
        public bool DecidesEligibility => false;

        public ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct)
        {
            lock (calls)
            {
                calls.Add(command.BornOn);
            }
            return inner.ReserveAsync(command, ct);
        }

        public ValueTask<CancelStatus> CancelAsync(CancelCommand command, CancellationToken ct) => inner.CancelAsync(command, ct);
        public ValueTask<RescheduleStatus> RescheduleAsync(RescheduleCommand command, CancellationToken ct) => inner.RescheduleAsync(command, ct);
        public Task<ReservationDetails?> FindAsync(string code, CancellationToken ct) => inner.FindAsync(code, ct);
        public Task<IReadOnlyList<SlotAvailability>> GetAvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct) =>
            inner.GetAvailabilityAsync(placeId, from, to, ct);
        public Task<bool> PingAsync(CancellationToken ct) => inner.PingAsync(ct);
    }
}
