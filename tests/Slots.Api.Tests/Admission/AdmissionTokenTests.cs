using System.Text;
using Microsoft.Extensions.Options;
using Slots.Admission;

namespace Slots.Api.Tests.Admission;

/// <summary>Tokens are checked by a MAC alone: forged, tampered, foreign-key and expired tokens are refused.</summary>
public sealed class AdmissionTokenTests
{
    private static readonly DateTimeOffset Now = new(2026, 11, 23, 10, 0, 0, TimeSpan.Zero);

    private static AdmissionTokens Tokens(string key = "a-signing-key-of-at-least-32-characters") =>
        new(Options.Create(new AdmissionOptions { SigningKey = key }));

    [Fact]
    public void A_token_says_its_opening_ticket_and_times_and_is_valid_until_it_expires()
    {
        var tokens = Tokens();
        var text = tokens.Issue(7, 42, Now, TimeSpan.FromHours(1));

        Assert.Equal(TokenCheck.Valid, tokens.Check(text, Now.AddMinutes(59), out var token));
        Assert.Equal((7L, 42L, Now, Now.AddHours(1)), (token.OpeningId, token.Ticket, token.IssuedAt, token.ExpiresAt));
        Assert.Equal(TokenCheck.Expired, tokens.Check(text, Now.AddHours(1), out _));
    }

    [Fact]
    public void Two_tokens_for_one_ticket_differ_by_their_nonce()
    {
        var tokens = Tokens();

        Assert.NotEqual(tokens.Issue(7, 42, Now, TimeSpan.FromHours(1)), tokens.Issue(7, 42, Now, TimeSpan.FromHours(1)));
    }

    [Fact]
    public void A_token_with_any_byte_of_its_payload_changed_is_refused()
    {
        var tokens = Tokens();
        var text = tokens.Issue(7, 42, Now, TimeSpan.FromHours(1));
        var dot = text.IndexOf('.', StringComparison.Ordinal);

        for (var i = 0; i < dot; i++)
        {
            var chars = text.ToCharArray();
            chars[i] = chars[i] == 'A' ? 'B' : 'A';
            Assert.NotEqual(TokenCheck.Valid, tokens.Check(new string(chars), Now, out _));
        }
    }

    // Found by CI: a changed last character can leave base64url that cannot be decoded at all, and the
    // check threw FormatException (a 500 on the status and booking endpoints) instead of refusing it.
    [Fact]
    public void A_token_that_is_not_base64url_is_malformed_not_an_exception()
    {
        var tokens = Tokens();
        var text = tokens.Issue(7, 42, Now, TimeSpan.FromHours(1));
        var dot = text.IndexOf('.', StringComparison.Ordinal);

        Assert.Equal(TokenCheck.Malformed, tokens.Check(text[..dot] + "A" + text[dot..], Now, out _));
        Assert.Equal(TokenCheck.Malformed, tokens.Check(text + "A", Now, out _));
        Assert.Equal(TokenCheck.Malformed, tokens.Check("*" + text[1..], Now, out _));
        Assert.Equal(TokenCheck.Malformed, tokens.Check(text[..dot] + ".=", Now, out _));
    }

    [Fact]
    public void A_token_that_moves_itself_forward_in_line_or_to_another_opening_is_refused()
    {
        var tokens = Tokens();
        var mine = tokens.Issue(7, 42, Now, TimeSpan.FromHours(1));
        tokens.Check(mine, Now, out var token);
        var signature = mine[mine.IndexOf('.', StringComparison.Ordinal)..];

        var earlier = tokens.Write(token with { Ticket = 1 });
        var elsewhere = tokens.Write(token with { OpeningId = 8 });

        Assert.Equal(TokenCheck.Forged, tokens.Check(earlier[..earlier.IndexOf('.', StringComparison.Ordinal)] + signature, Now, out _));
        Assert.Equal(TokenCheck.Forged, tokens.Check(elsewhere[..elsewhere.IndexOf('.', StringComparison.Ordinal)] + signature, Now, out _));
    }

    [Fact]
    public void A_token_signed_with_another_key_is_forged()
    {
        var theirs = Tokens("somebody-elses-key-of-32-characters-or-more").Issue(7, 1, Now, TimeSpan.FromHours(1));

        Assert.Equal(TokenCheck.Forged, Tokens().Check(theirs, Now, out _));
    }

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("not-a-token")]
    [InlineData("abc.def")]
    [InlineData("....")]
    public void Garbage_is_malformed(string? text) =>
        Assert.Equal(TokenCheck.Malformed, Tokens().Check(text, Now, out _));

    [Fact]
    public void A_token_holds_no_personal_data_only_numbers_and_a_nonce()
    {
        var text = Tokens().Issue(7, 42, Now, TimeSpan.FromHours(1));
        var payload = System.Buffers.Text.Base64Url.DecodeFromChars(text.AsSpan(0, text.IndexOf('.', StringComparison.Ordinal)));

        Assert.Equal(49, payload.Length); // version, opening, ticket, issued, expires (8 bytes each), nonce (16)
        Assert.DoesNotContain("7803121234", Encoding.UTF8.GetString(payload), StringComparison.Ordinal);
    }

    [Fact]
    public void A_short_signing_key_is_refused() =>
        Assert.Throws<InvalidOperationException>(() => Tokens("too-short"));
}
