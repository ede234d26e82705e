using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Diagnostics;
using Slots.Catalogue;
using Slots.Storage.Ef;
using Slots.Storage.Ef.Eligibility;

namespace Slots.Storage.Sqlite.Tests;

/// <summary>
/// A large invitation batch is written in chunks the context forgets as it goes: one batch of 100,000 codes tracked at
/// once took an API instance from 159 MB to 563 MB resident, kept after the request.
/// </summary>
public sealed class InvitationBatchWriteTests : IAsyncDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("slots-invitations-").FullName;

    public ValueTask DisposeAsync()
    {
        SqliteConnection.ClearAllPools();
        Directory.Delete(_folder, recursive: true);
        return ValueTask.CompletedTask;
    }

    [Fact]
    public async Task A_batch_of_ten_thousand_codes_is_stored_whole_with_at_most_two_thousand_tracked_at_a_time()
    {
        var ct = TestContext.Current.CancellationToken;
        var connectionString = $"Data Source={Path.Combine(_folder, "slots.db")}";
        await SqliteSchema.MigrateAsync(connectionString, ct);
        var tracked = new TrackedAtSave();
        var options = new DbContextOptionsBuilder<SlotsDbContext>().UseSqlite(connectionString).AddInterceptors(tracked).Options;
        await using var db = new SlotsDbContext(options);
        var hashes = Enumerable.Range(0, 10_000).Select(i => $"hash-{i:D6}").ToList();

        var batch = await new EfInvitationStore(db).AddBatchAsync(ServiceIds.Default, "second wave", hashes, "admin", 1_800_000_000, ct);

        Assert.Equal(10_000, batch.Size);
        Assert.Equal(10_000, await db.InvitationCodes.CountAsync(c => c.BatchId == batch.Id, ct));
        Assert.InRange(tracked.Most, 1, 2_000);
    }

    /// <summary>The most entities the context tracked when it was asked to save.</summary>
    private sealed class TrackedAtSave : SaveChangesInterceptor
    {
        public int Most { get; private set; }

        public override ValueTask<InterceptionResult<int>> SavingChangesAsync(DbContextEventData eventData, InterceptionResult<int> result,
            CancellationToken cancellationToken = default)
        {
            Most = Math.Max(Most, eventData.Context!.ChangeTracker.Entries().Count());
            return ValueTask.FromResult(result);
        }
    }
}
