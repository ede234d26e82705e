using Slots.Eligibility;

namespace Slots.Api.Tests.Eligibility;

/// <summary>The birth date read from a Slovak or Czech birth number, and the numbers that are refused.</summary>
public sealed class BirthNumberTests
{
    [Theory]
    [InlineData("8503151239", 1985, 3, 15)] // a man
    [InlineData("850315/1239", 1985, 3, 15)] // with the slash
    [InlineData(" 850315/1239 ", 1985, 3, 15)] // spaces around are not part of it
    [InlineData("8553151233", 1985, 3, 15)] // a woman: month + 50
    [InlineData("0403151232", 2004, 3, 15)] // born this century
    [InlineData("0423151234", 2004, 3, 15)] // extended month + 20, from 2004
    [InlineData("0473151239", 2004, 3, 15)] // a woman's extended month + 70
    [InlineData("0002290013", 2000, 2, 29)] // a leap day
    [InlineData("530101001", 1953, 1, 1)] // nine digits, born before 1954
    [InlineData("530101/001", 1953, 1, 1)]
    [InlineData("8001010040", 1980, 1, 1)] // the old exception: nine digits ≡ 10 (mod 11), check digit 0
    [InlineData("8512310060", 1985, 12, 31)] // the old exception's last year
    [InlineData("535101001", 1953, 1, 1)] // nine digits, a woman: month + 50
    [InlineData("5401011231", 1954, 1, 1)] // the first year of ten digits
    [InlineData("0482311236", 2004, 12, 31)] // a woman's extended month + 70, December
    public void A_valid_number_gives_its_birth_date(string number, int year, int month, int day) =>
        Assert.Equal(new DateOnly(year, month, day), BirthNumber.BirthDate(number));

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("8503151238")] // wrong check digit
    [InlineData("8513151230")] // month 13 (check digit right by the old exception)
    [InlineData("8523151230")] // extended month before 2004
    [InlineData("0102290012")] // 29 February 2001
    [InlineData("850332123")] // nine digits after 1953 (1985)
    [InlineData("540101001")] // nine digits, 1954: already ten-digit numbers
    [InlineData("9001010030")] // the old exception does not hold from 1986 on
    [InlineData("8601010100")] // nor in 1986 itself
    [InlineData("0323151235")] // extended month in 2003 (check digit right)
    [InlineData("8563151234")] // a woman's month 63 (check digit right)
    [InlineData("850315//1239")] // a second slash
    [InlineData("85031/51239")] // a slash in the wrong place
    [InlineData("850315-1239")] // a dash is not a separator
    [InlineData("85031512390")] // eleven digits
    [InlineData("85031512")] // eight digits
    [InlineData("850300/1232")] // day 0 (check digit right)
    [InlineData("ab0315/1239")]
    public void An_invalid_number_gives_no_date(string? number) =>
        Assert.Null(BirthNumber.BirthDate(number));
}
