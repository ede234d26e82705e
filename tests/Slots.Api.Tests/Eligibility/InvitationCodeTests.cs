using System.Text;
using System.Text.RegularExpressions;
using Slots.Eligibility;

namespace Slots.Api.Tests.Eligibility;

/// <summary>Invitation codes: drawn at random, read back however a person types them, stored as a keyed hash.</summary>
public sealed partial class InvitationCodeTests
{
    private static readonly byte[] Key = Encoding.UTF8.GetBytes("a campaign secret of some length");

    [Fact]
    public void A_new_code_is_twelve_crockford_symbols_in_three_groups()
    {
        for (var i = 0; i < 200; i++)
        {
            Assert.Matches(Shown(), InvitationCode.New());
        }
    }

    [Fact]
    public void New_codes_do_not_repeat_and_use_the_whole_alphabet()
    {
        var codes = Enumerable.Range(0, 2000).Select(_ => InvitationCode.New()).ToList();

        Assert.Equal(codes.Count, codes.Distinct().Count());
        // 24,000 symbols over 32: each is expected 750 times, so a missing one means a broken draw.
        var symbols = codes.SelectMany(c => c.Replace("-", "")).Distinct().Count();
        Assert.Equal(32, symbols);
    }

    [Fact]
    public void A_new_code_reads_back_as_itself() =>
        Assert.All(Enumerable.Range(0, 50).Select(_ => InvitationCode.New()), code =>
            Assert.Equal(code, InvitationCode.Format(InvitationCode.Normalize(code)!)));

    [Theory]
    [InlineData("ABCD-EFGH-JKMN", "ABCDEFGHJKMN")]
    [InlineData("abcd-efgh-jkmn", "ABCDEFGHJKMN")] // any case
    [InlineData(" abcd efgh jkmn ", "ABCDEFGHJKMN")] // spaces
    [InlineData("ABCDEFGHJKMN", "ABCDEFGHJKMN")] // no dashes
    [InlineData("A-B-C-D-E-F-G-H-J-K-M-N", "ABCDEFGHJKMN")]
    [InlineData("IL0O-ilo0-1234", "11001100" + "1234")] // I and L read as 1, O as 0
    [InlineData("PQRS-TVWX-YZ89", "PQRSTVWXYZ89")]
    public void Normalize_forgives_what_people_type(string typed, string normalized) =>
        Assert.Equal(normalized, InvitationCode.Normalize(typed));

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("   ")]
    [InlineData("ABCD-EFGH-JKM")] // eleven symbols
    [InlineData("ABCD-EFGH-JKMNP")] // thirteen
    [InlineData("ABCD-EFGH-JKMU")] // U is not in the alphabet
    [InlineData("ABCD-EFGH-JK*N")]
    [InlineData("ABCD_EFGH_JKMN")] // only dashes and spaces separate
    [InlineData("ABCD-EFGH-JKMÑ")]
    [InlineData("ABCD-EFGH-JKMN-------------------------------")] // too long to be typed, whatever it holds
    public void Normalize_refuses_what_cannot_be_a_code(string? typed) =>
        Assert.Null(InvitationCode.Normalize(typed));

    [Fact]
    public void Every_way_of_typing_a_code_gives_one_hash()
    {
        var hash = InvitationCode.Hash(Key, InvitationCode.Normalize("ABCD-EFGH-JK01")!);

        Assert.Equal(hash, InvitationCode.Hash(Key, InvitationCode.Normalize("abcd efgh jkol")!));
        Assert.Matches("^[0-9a-f]{64}$", hash);
    }

    [Fact]
    public void The_hash_is_hmac_sha256_of_the_normalized_code_under_the_key()
    {
        var expected = Convert.ToHexStringLower(System.Security.Cryptography.HMACSHA256.HashData(Key, "ABCDEFGHJKMN"u8));

        Assert.Equal(expected, InvitationCode.Hash(Key, "ABCDEFGHJKMN"));
    }

    [Fact]
    public void Another_key_or_another_code_gives_another_hash()
    {
        var hash = InvitationCode.Hash(Key, "ABCDEFGHJKMN");

        Assert.NotEqual(hash, InvitationCode.Hash(Encoding.UTF8.GetBytes("another campaign secret"), "ABCDEFGHJKMN"));
        Assert.NotEqual(hash, InvitationCode.Hash(Key, "ABCDEFGHJKMP"));
    }

    [Theory]
    [InlineData("ABCD-EFGH-JKMN")] // as shown, not normalized
    [InlineData("abcdefghjkmn")]
    [InlineData("ABCDEFGHJKM")]
    public void Hash_takes_only_a_normalized_code_and_keeps_it_out_of_the_message(string code)
    {
        var error = Assert.Throws<ArgumentException>(() => InvitationCode.Hash(Key, code));

        Assert.DoesNotContain(code, error.Message, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public void Hash_refuses_an_empty_key() =>
        Assert.Throws<ArgumentException>(() => InvitationCode.Hash([], "ABCDEFGHJKMN"));

    [GeneratedRegex("^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$")]
    private static partial Regex Shown();
}
