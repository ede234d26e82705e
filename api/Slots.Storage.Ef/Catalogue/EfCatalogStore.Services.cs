using Microsoft.EntityFrameworkCore;
using Slots.Catalogue;
using Slots.Eligibility;

namespace Slots.Storage.Ef;

/// <summary>The service catalogue and what each place offers: read whole by the service directory, written by admins.</summary>
public partial class EfCatalogStore
{
    // Two admins adding services at once may pick the same next id; the loser tries again.
    private const int AddTries = 3;

    public async Task<IReadOnlyList<ServiceInfo>> AllServicesAsync(CancellationToken ct)
    {
        var rules = await Db.ServiceEligibility.AsNoTracking().ToDictionaryAsync(e => e.ServiceId, ct);
        var steps = (await Db.ServiceAgeSteps.AsNoTracking().ToListAsync(ct)).ToLookup(s => s.ServiceId);
        return (await Db.Services.AsNoTracking().OrderBy(s => s.Id).ToListAsync(ct))
            .Select(s => Info(s) with { Who = Who(s.Id, rules.GetValueOrDefault(s.Id), steps[s.Id]) })
            .ToList();
    }

    public async Task<ServiceInfo?> SetEligibilityAsync(string code, EligibilityRule rule, bool acceptsInvitations, IReadOnlyList<AgeStep> steps,
        CancellationToken ct)
    {
        await using var tx = await Db.Database.BeginTransactionAsync(ct);
        var service = await Db.Services.AsNoTracking().SingleOrDefaultAsync(s => s.Code == code, ct);
        if (service is null)
        {
            return null;
        }
        await Db.ServiceAgeSteps.Where(s => s.ServiceId == service.Id).ExecuteDeleteAsync(ct);
        await Db.ServiceEligibility.Where(e => e.ServiceId == service.Id).ExecuteDeleteAsync(ct);
        var row = new ServiceEligibilityRecord { ServiceId = service.Id, Rule = (short)rule, AcceptsInvitations = acceptsInvitations };
        Db.ServiceEligibility.Add(row);
        var rows = steps.Select(s => new ServiceAgeStepRecord { ServiceId = service.Id, OpensAt = s.OpensAt, BornOnOrBefore = s.BornOnOrBefore }).ToList();
        Db.ServiceAgeSteps.AddRange(rows);
        await Db.SaveChangesAsync(ct);
        await tx.CommitAsync(ct);
        Db.ChangeTracker.Clear();
        return Info(service) with { Who = Who(service.Id, row, rows) };
    }

    private static ServiceEligibility? Who(int serviceId, ServiceEligibilityRecord? rule, IEnumerable<ServiceAgeStepRecord> steps) =>
        rule is null ? null
            : new ServiceEligibility(serviceId, (EligibilityRule)rule.Rule, rule.AcceptsInvitations,
                steps.OrderBy(s => s.OpensAt).Select(s => new AgeStep(s.OpensAt, s.BornOnOrBefore)).ToList());

    public async Task<IReadOnlyList<PlaceOffer>> OffersAsync(CancellationToken ct) =>
        (await Db.PlaceServices.AsNoTracking().OrderBy(o => o.PlaceId).ThenBy(o => o.ServiceId).ToListAsync(ct))
            .Select(o => new PlaceOffer(o.PlaceId, o.ServiceId, o.Seats, Template(o), o.Active))
            .ToList();

    public async Task<ServiceInfo?> AddServiceAsync(ServiceInfo service, CancellationToken ct)
    {
        for (var attempt = 1; ; attempt++)
        {
            if (await Db.Services.AsNoTracking().AnyAsync(s => s.Code == service.Code, ct))
            {
                return null;
            }
            // The ids are the catalogue's own (no identity on every backend): the next after the greatest.
            var id = (await Db.Services.MaxAsync(s => (int?)s.Id, ct) ?? 0) + 1;
            var record = new ServiceRecord { Id = id, Code = service.Code, NameSk = service.NameSk, NameEn = service.NameEn };
            Set(record, service);
            Db.Services.Add(record);
            try
            {
                await Db.SaveChangesAsync(ct);
                Db.ChangeTracker.Clear();
                return Info(record);
            }
            catch (DbUpdateException) when (attempt < AddTries)
            {
                Db.ChangeTracker.Clear(); // taken meanwhile: the id or the code; the next round tells which
            }
        }
    }

    public async Task<ServiceInfo?> UpdateServiceAsync(ServiceInfo service, CancellationToken ct)
    {
        var record = await Db.Services.SingleOrDefaultAsync(s => s.Code == service.Code, ct);
        if (record is null)
        {
            return null;
        }
        Set(record, service);
        await Db.SaveChangesAsync(ct);
        Db.ChangeTracker.Clear();
        return Info(record);
    }

    public async Task OfferAsync(PlaceOffer offer, CancellationToken ct)
    {
        var record = await Db.PlaceServices.SingleOrDefaultAsync(o => o.PlaceId == offer.PlaceId && o.ServiceId == offer.ServiceId, ct);
        if (record is null)
        {
            record = new PlaceServiceRecord { PlaceId = offer.PlaceId, ServiceId = offer.ServiceId };
            Db.PlaceServices.Add(record);
        }
        record.Seats = offer.Seats;
        record.FirstMinute = offer.Template is { } t ? MinuteOf(t.FirstStart) : null;
        record.LastMinute = offer.Template is { } l ? MinuteOf(l.LastStart) : null;
        record.IntervalMinutes = offer.Template?.IntervalMinutes;
        record.LengthMinutes = offer.Template?.LengthMinutes;
        record.Active = offer.Active;
        await Db.SaveChangesAsync(ct);
        Db.ChangeTracker.Clear();
    }

    private static void Set(ServiceRecord record, ServiceInfo service)
    {
        record.NameSk = service.NameSk;
        record.NameEn = service.NameEn;
        record.DoseMinDays = service.SecondDose?.MinDays;
        record.DoseMaxDays = service.SecondDose?.MaxDays;
        record.Active = service.Active;
    }

    private static ServiceInfo Info(ServiceRecord s) =>
        new(s.Id, s.Code, s.NameSk, s.NameEn, s is { DoseMinDays: { } min, DoseMaxDays: { } max } ? new DoseInterval(min, max) : null, s.Active);

    private static int MinuteOf(TimeOnly time) => (time.Hour * 60) + time.Minute;

    /// <summary>The offer's slot template, when its four columns are set.</summary>
    private static SlotTemplate? Template(PlaceServiceRecord o) =>
        o is { FirstMinute: { } first, LastMinute: { } last, IntervalMinutes: { } interval, LengthMinutes: { } length }
            ? new SlotTemplate(TimeOnly.FromTimeSpan(TimeSpan.FromMinutes(first)), TimeOnly.FromTimeSpan(TimeSpan.FromMinutes(last)), interval, length)
            : null;
}
