namespace Slots.Persons;

/// <summary>Phone numbers in E.164 form (+ and 8–15 digits), the form SMS gateways take.</summary>
public static class PhoneNumber
{
    /// <summary>
    /// Accepts "+421 905 123 456", "00421905123456" and the national "0905 123 456" (with the
    /// configured country code). Returns null when the input is not a phone number.
    /// </summary>
    public static string? Normalize(string? input, string defaultCountryCode)
    {
        if (string.IsNullOrWhiteSpace(input) || input.Length > 32)
        {
            return null;
        }
        Span<char> digits = stackalloc char[32];
        var n = 0;
        var plus = false;
        for (var i = 0; i < input.Length; i++)
        {
            var c = input[i];
            if (char.IsAsciiDigit(c))
            {
                digits[n++] = c;
            }
            else if (c == '+' && n == 0 && !plus)
            {
                plus = true;
            }
            else if (c is not (' ' or '-' or '(' or ')' or '/' or '.'))
            {
                return null;
            }
        }
        var raw = new string(digits[..n]);
        string international;
        if (plus)
        {
            international = raw;
        }
        else if (raw.StartsWith("00", StringComparison.Ordinal))
        {
            international = raw[2..];
        }
        else if (raw.StartsWith('0'))
        {
            international = defaultCountryCode + raw[1..];
        }
        else
        {
            return null;
        }
        return international.Length is >= 8 and <= 15 && international[0] != '0' ? "+" + international : null;
    }
}
