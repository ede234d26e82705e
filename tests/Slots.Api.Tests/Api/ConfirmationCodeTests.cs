using Slots.Reservations;

namespace Slots.Api.Tests.Api;

public sealed class ConfirmationCodeTests
{
    private const string Alphabet = "23456789ABCDEFGHJKMNPQRSTVWXYZ";

    [Fact]
    public void A_new_code_is_ten_symbols_of_the_alphabet_in_two_groups_and_reads_back_as_itself()
    {
        for (var i = 0; i < 1_000; i++)
        {
            var code = ConfirmationCode.New();
            Assert.Matches("^[23456789ABCDEFGHJKMNPQRSTVWXYZ]{5}-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{5}$", code);
            Assert.Equal(code, ConfirmationCode.Normalize(code));
        }
    }

    [Fact]
    public void Every_symbol_is_drawn_about_equally_often_in_every_position()
    {
        // 12,000 codes: each symbol is expected 400 times per position (sd about 20); a biased mapping
        // of bytes to symbols (byte % 30 without redrawing 240..255) would give the first 16 symbols
        // about 7 % more than the rest, and a stuck position would give one symbol everything.
        var counts = new int[10, Alphabet.Length];
        for (var i = 0; i < 12_000; i++)
        {
            var symbols = ConfirmationCode.New().Replace("-", "", StringComparison.Ordinal);
            for (var p = 0; p < symbols.Length; p++)
            {
                counts[p, Alphabet.IndexOf(symbols[p], StringComparison.Ordinal)]++;
            }
        }
        for (var p = 0; p < 10; p++)
        {
            for (var s = 0; s < Alphabet.Length; s++)
            {
                Assert.InRange(counts[p, s], 300, 500);
            }
        }
        var firstSixteen = Enumerable.Range(0, 10).Sum(p => Enumerable.Range(0, 16).Sum(s => counts[p, s])) / 16.0;
        var lastFourteen = Enumerable.Range(0, 10).Sum(p => Enumerable.Range(16, 14).Sum(s => counts[p, s])) / 14.0;
        Assert.InRange(firstSixteen / lastFourteen, 0.97, 1.03);
    }
}
