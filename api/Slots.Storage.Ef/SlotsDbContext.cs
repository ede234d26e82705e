using System.Text;
using Microsoft.EntityFrameworkCore;
using Slots.Catalogue;
using Slots.Places;

namespace Slots.Storage.Ef;

/// <summary>
/// EF Core owns the cold side: places, slot generation, reporting and the window moves. The
/// schema itself comes from the versioned SQL scripts of each backend, not from EF.
/// </summary>
public sealed class SlotsDbContext(DbContextOptions<SlotsDbContext> options) : DbContext(options)
{
    public DbSet<Place> Places => Set<Place>();
    public DbSet<SlotRow> Slots => Set<SlotRow>();
    public DbSet<HotSeat> HotSeats => Set<HotSeat>();
    public DbSet<ServiceEligibilityRecord> ServiceEligibility => Set<ServiceEligibilityRecord>();
    public DbSet<ServiceAgeStepRecord> ServiceAgeSteps => Set<ServiceAgeStepRecord>();
    public DbSet<InvitationBatchRecord> InvitationBatches => Set<InvitationBatchRecord>();
    public DbSet<InvitationCodeRecord> InvitationCodes => Set<InvitationCodeRecord>();
    public DbSet<DosePairRecord> DosePairs => Set<DosePairRecord>();
    public DbSet<HotReservation> HotReservations => Set<HotReservation>();
    public DbSet<ReservationRecord> Reservations => Set<ReservationRecord>();
    public DbSet<ActivePerson> ActivePersons => Set<ActivePerson>();
    public DbSet<IdempotencyRecord> Idempotency => Set<IdempotencyRecord>();
    public DbSet<OutboxMessage> Outbox => Set<OutboxMessage>();
    public DbSet<SiteCancelRecord> SiteCancels => Set<SiteCancelRecord>();
    public DbSet<ChangeRecord> Changes => Set<ChangeRecord>();
    public DbSet<JobRunRecord> JobRuns => Set<JobRunRecord>();
    public DbSet<AttendanceRecord> Attendance => Set<AttendanceRecord>();
    public DbSet<StaffAuditRecord> StaffAudit => Set<StaffAuditRecord>();
    public DbSet<WrongProofRecord> WrongProofs => Set<WrongProofRecord>();
    public DbSet<ReminderRecord> Reminders => Set<ReminderRecord>();
    public DbSet<MachineKeyRecord> MachineKeys => Set<MachineKeyRecord>();
    public DbSet<WaitlistEntry> Waitlist => Set<WaitlistEntry>();
    public DbSet<WaitlistOfferRecord> WaitlistOffers => Set<WaitlistOfferRecord>();
    public DbSet<ServiceRecord> Services => Set<ServiceRecord>();
    public DbSet<PlaceServiceRecord> PlaceServices => Set<PlaceServiceRecord>();

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        MapSchema(modelBuilder);
        modelBuilder.HasDbFunction(typeof(SearchText).GetMethod(nameof(SearchText.Lower))!).HasName(SearchText.LowerFunction);
    }

    /// <summary>
    /// The tables, keys and snake_case column names of the SQL scripts; shared with any other
    /// context over the same tables (the benchmark's EF Core baseline).
    /// </summary>
    public static void MapSchema(ModelBuilder modelBuilder)
    {
        modelBuilder.Entity<Place>().ToTable("places");
        modelBuilder.Entity<SlotRow>(e =>
        {
            e.ToTable("slots");
            e.HasKey(x => new { x.PlaceId, x.Day, x.StartMinute, x.ServiceId });
        });
        modelBuilder.Entity<HotSeat>(e =>
        {
            e.ToTable("hot_seats");
            e.HasKey(x => new { x.PlaceId, x.Day, x.StartMinute, x.ServiceId, x.SeatNo });
        });
        modelBuilder.Entity<HotReservation>(e =>
        {
            e.ToTable("hot_reservations");
            e.HasKey(x => x.Code);
        });
        modelBuilder.Entity<ReservationRecord>(e =>
        {
            e.ToTable("reservations");
            e.HasKey(x => x.Code);
        });
        modelBuilder.Entity<ActivePerson>(e =>
        {
            e.ToTable("active_persons");
            e.HasKey(x => new { x.PersonHash, x.ServiceId }); // one active booking per person and service
        });
        modelBuilder.Entity<IdempotencyRecord>(e =>
        {
            e.ToTable("idempotency");
            e.HasKey(x => x.Key);
        });
        modelBuilder.Entity<OutboxMessage>().ToTable("outbox");
        modelBuilder.Entity<ChangeRecord>().ToTable("changes");
        modelBuilder.Entity<JobRunRecord>(e =>
        {
            e.ToTable("job_runs");
            e.HasKey(x => x.Job);
        });
        modelBuilder.Entity<AttendanceRecord>(e =>
        {
            e.ToTable("attendance");
            e.HasKey(x => x.Code);
        });
        modelBuilder.Entity<StaffAuditRecord>().ToTable("staff_audit");
        modelBuilder.Entity<SiteCancelRecord>().ToTable("site_cancels");
        modelBuilder.Entity<WrongProofRecord>().ToTable("wrong_proofs");
        modelBuilder.Entity<MachineKeyRecord>().ToTable("machine_keys");
        modelBuilder.Entity<ReminderRecord>(e =>
        {
            e.ToTable("reminders");
            e.HasKey(x => new { x.Code, x.StartsAt });
        });
        modelBuilder.Entity<WaitlistEntry>().ToTable("waitlist");
        modelBuilder.Entity<WaitlistOfferRecord>().ToTable("waitlist_offers");
        modelBuilder.Entity<ServiceRecord>(e =>
        {
            e.ToTable("services");
            e.Property(x => x.Id).ValueGeneratedNever(); // ids are the catalogue's own: 1 is the default service
        });
        modelBuilder.Entity<PlaceServiceRecord>(e =>
        {
            e.ToTable("place_services");
            e.HasKey(x => new { x.PlaceId, x.ServiceId });
        });
        modelBuilder.Entity<ServiceEligibilityRecord>(e =>
        {
            e.ToTable("service_eligibility");
            e.HasKey(x => x.ServiceId);
            e.Property(x => x.ServiceId).ValueGeneratedNever();
        });
        modelBuilder.Entity<ServiceAgeStepRecord>(e =>
        {
            e.ToTable("service_age_steps");
            e.HasKey(x => new { x.ServiceId, x.OpensAt });
        });
        modelBuilder.Entity<InvitationBatchRecord>().ToTable("invitation_batches");
        modelBuilder.Entity<InvitationCodeRecord>(e =>
        {
            e.ToTable("invitation_codes");
            e.HasKey(x => x.Hash);
        });
        modelBuilder.Entity<DosePairRecord>(e =>
        {
            e.ToTable("dose_pairs");
            e.HasKey(x => x.FirstCode);
            e.HasIndex(x => x.SecondCode).IsUnique();
        });

        // The SQL scripts name columns in snake_case on every backend.
        foreach (var entity in modelBuilder.Model.GetEntityTypes())
        {
            foreach (var property in entity.GetProperties())
            {
                property.SetColumnName(SnakeCase(property.Name));
            }
        }
    }

    private static string SnakeCase(string name)
    {
        var sb = new StringBuilder(name.Length + 8);
        for (var i = 0; i < name.Length; i++)
        {
            if (char.IsUpper(name[i]) && i > 0)
            {
                sb.Append('_');
            }
            sb.Append(char.ToLowerInvariant(name[i]));
        }
        return sb.ToString();
    }
}
