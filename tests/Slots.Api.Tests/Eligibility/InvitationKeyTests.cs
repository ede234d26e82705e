using Microsoft.Extensions.Options;
using Slots.Eligibility;

namespace Slots.Api.Tests.Eligibility;

/// <summary>The campaign's invitation key: optional, but never a short one; without it no code has a hash.</summary>
public sealed class InvitationKeyTests
{
    private static InvitationKey Key(string secret) => new(Options.Create(new InvitationOptions { HmacSecret = secret }));

    [Fact]
    public void Without_a_key_nothing_is_configured_and_no_code_has_a_hash()
    {
        var key = Key("");

        Assert.False(key.Configured);
        Assert.Null(key.Hash("ABCDEFGHJKMN"));
    }

    [Fact]
    public void A_key_hashes_a_code_as_InvitationCode_does()
    {
        const string Secret = "an-invitation-key-of-enough-length";
        var key = Key(Secret);

        Assert.True(key.Configured);
        Assert.Equal(InvitationCode.Hash(System.Text.Encoding.UTF8.GetBytes(Secret), "ABCDEFGHJKMN"), key.Hash("ABCDEFGHJKMN"));
    }

    [Fact]
    public void A_short_key_is_refused_naming_the_setting_but_not_the_value()
    {
        var refused = Assert.Throws<InvalidOperationException>(() => Key("too-short"));

        Assert.Contains("Slots:Invitations:HmacSecret", refused.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("too-short", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Issuing_draws_distinct_codes_and_hands_the_store_only_their_hashes()
    {
        var store = new RecordingStore();
        var key = Key("an-invitation-key-of-enough-length");
        var batches = new InvitationBatches(store, key, Options.Create(new InvitationOptions()), TimeProvider.System);

        var issued = await batches.IssueAsync(3, "Teachers", 50, "admin", TestContext.Current.CancellationToken);

        Assert.Equal(50, issued.Codes.Distinct().Count());
        Assert.Equal(issued.Codes.Select(c => key.Hash(InvitationCode.Normalize(c)!)).Order(), store.Hashes.Order());
        Assert.DoesNotContain(store.Hashes, h => issued.Codes.Any(c => h.Contains(InvitationCode.Normalize(c)!, StringComparison.OrdinalIgnoreCase)));
    }

    private sealed class RecordingStore : IInvitationStore
    {
        public List<string> Hashes { get; } = [];

        public Task<InvitationBatch> AddBatchAsync(int serviceId, string label, IReadOnlyCollection<string> hashes, string by, long now, CancellationToken ct)
        {
            Hashes.AddRange(hashes);
            return Task.FromResult(new InvitationBatch(1, serviceId, label, hashes.Count, 0, now, by, null, null));
        }

        public Task<IReadOnlyList<InvitationBatch>> BatchesAsync(int? serviceId, CancellationToken ct) => throw new NotSupportedException();

        public Task<InvitationBatch?> RevokeAsync(int batchId, string by, long now, CancellationToken ct) => throw new NotSupportedException();
    }
}
