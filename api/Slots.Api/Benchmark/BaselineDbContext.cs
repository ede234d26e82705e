using Microsoft.EntityFrameworkCore;
using Slots.Storage.Ef;

namespace Slots.Api.Benchmark;

/// <summary>
/// The baseline's own EF Core model over the same tables as the real path. Its own, because the
/// baseline needs what the real model leaves out: optimistic concurrency on the seat's code (the
/// UPDATE says "… AND code IS NULL", so two racers cannot both take one seat) and on the person
/// row's end (two racers for one person cannot both replace a stale row).
/// </summary>
internal sealed class BaselineDbContext(DbContextOptions<BaselineDbContext> options) : DbContext(options)
{
    public DbSet<HotSeat> HotSeats => Set<HotSeat>();
    public DbSet<HotReservation> HotReservations => Set<HotReservation>();
    public DbSet<ActivePerson> ActivePersons => Set<ActivePerson>();
    public DbSet<OutboxMessage> Outbox => Set<OutboxMessage>();
    public DbSet<ChangeRecord> Changes => Set<ChangeRecord>();

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        SlotsDbContext.MapSchema(modelBuilder);
        modelBuilder.Entity<HotSeat>().Property(x => x.Code).IsConcurrencyToken();
        modelBuilder.Entity<ActivePerson>().Property(x => x.EndsAt).IsConcurrencyToken();
    }

    /// <summary>
    /// Options for the same database and provider as the application's SlotsDbContext, less what Slots adds to the
    /// connection by default (EfDialect.PlainConnectionString: PostgreSQL's prepared statements): the baseline is EF Core
    /// as a plain application gets it, as it was measured from the start.
    /// </summary>
    public static DbContextOptions<BaselineDbContext> OptionsLike(SlotsDbContext app, EfDialect dialect)
    {
        var connection = app.Database.GetConnectionString()
            ?? throw new InvalidOperationException("The application's database has no connection string.");
        var builder = new DbContextOptionsBuilder<BaselineDbContext>();
        dialect.UseProvider(builder, dialect.PlainConnectionString(connection));
        return builder.Options;
    }
}
