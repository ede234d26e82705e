using Microsoft.Extensions.DependencyInjection;
using Slots.Catalogue;
using Slots.Reservations;
using Slots.Sms.Tests.Infrastructure;
using Slots.Storage;
using Slots.Testing;

namespace Slots.Sms.Tests;

/// <summary>
/// A pair's messages (issue 41 item 3): one confirmation names both doses, and one message tells the pair's
/// cancel; the second dose's own messages name the pair's code, the one the person knows and the manage page finds.
/// </summary>
public sealed class PairSmsTests
{
    [Theory]
    [InlineData(Backend.Sqlite)]
    [InlineData(Backend.Postgres)]
    public async Task One_SMS_confirms_both_doses_and_one_tells_their_cancel_naming_the_pair_s_code(Backend backend)
    {
        var sender = new RecordingSender();
        await using var world = await StartAsync(backend, sender);
        var catalog = world.Services.GetRequiredService<ServiceCatalog>();
        var directory = world.Services.GetRequiredService<ServiceDirectory>();
        var service = (await directory.FindAsync(ServiceIds.Default, CancellationToken.None))!;
        var (written, _) = await catalog.UpdateAsync(service with { SecondDose = new DoseInterval(2, 2) }, CancellationToken.None);
        Assert.Equal(CatalogueWrite.Written, written);

        var (answer, phone) = await world.BookAsync(world.Slot(0, 1));
        Assert.Equal(ReservationStatus.Reserved, answer.Status);
        Assert.Equal(world.FirstDay.AddDays(2), answer.Second!.Day);
        await world.DrainAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(CancelStatus.Cancelled, await world.Reservations.CancelAsync(answer.Code!, new ContactProof(phone, null), CancellationToken.None));
        await world.DrainAsync(TimeSpan.FromSeconds(30));

        var texts = sender.Messages.OrderBy(m => m.MessageId).Select(m => m.Text).ToList();
        var second = world.FirstDay.AddDays(2).ToString("d.M.yyyy", System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains(texts, t => t.StartsWith("Rezervacia potvrdena", StringComparison.Ordinal) && t.Contains($"2. davka {second} o 08:00", StringComparison.Ordinal));
        Assert.Equal(1, texts.Count(t => t.StartsWith("Rezervacia potvrdena", StringComparison.Ordinal)));
        // The pair's cancel, once, naming the code the person was given; the second dose's row is not left unsent.
        var cancel = Assert.Single(texts, t => t.Contains("bola zrusena", StringComparison.Ordinal));
        Assert.StartsWith($"Rezervacia {answer.Code} ", cancel);
        Assert.Empty(await world.Services.GetRequiredService<ISmsStore>().ReadUnsentAsync(100, CancellationToken.None));
    }

    private static async Task<SmsWorld> StartAsync(Backend backend, RecordingSender sender)
    {
        try
        {
            return await SmsWorld.StartAsync(backend, rabbitUri: null, sender, capacity: 2);
        }
        catch (PostgresUnavailableException ex)
        {
            throw Unavailable.Because(ex.Message);
        }
    }
}
