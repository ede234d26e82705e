using System.Text;
using System.Text.RegularExpressions;

namespace Slots.OpenApi.Tests.Document;

/// <summary>
/// Strings that match a schema's `pattern`, for the subset of regular expressions documents use
/// (literals, escapes, classes, groups, lookaheads, alternation, quantifiers). Every string is checked with
/// <see cref="Regex"/> before it is used, so an unsupported pattern gives null, never a wrong value.
/// </summary>
public static class PatternStrings
{
    private const string Printable = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.:/+!?#";

    public static string? Sample(string pattern, Random random, int minLength = 0, int maxLength = int.MaxValue)
    {
        for (var attempt = 0; attempt < 20; attempt++)
        {
            string text;
            try
            {
                var builder = new StringBuilder();
                new Walker(pattern, random).Alternation(builder);
                text = builder.ToString();
            }
            catch (NotSupportedException)
            {
                return null;
            }
            if (text.Length >= minLength && text.Length <= maxLength && Regex.IsMatch(text, pattern))
            {
                return text;
            }
        }
        return null;
    }

    /// <summary>A string that does not match the pattern but keeps within the lengths where it can.</summary>
    public static string? Breaking(string pattern, string valid, int minLength, int maxLength)
    {
        string[] candidates = [valid + "!", "!" + valid, valid.Length > 1 ? valid[..^1] + "~" : "~", new string('~', Math.Max(minLength, 1)), "", "!"];
        return candidates.FirstOrDefault(c => !Regex.IsMatch(c, pattern) && c.Length >= minLength && c.Length <= maxLength)
            ?? candidates.FirstOrDefault(c => !Regex.IsMatch(c, pattern));
    }

    private sealed class Walker(string pattern, Random random)
    {
        private int _at;

        public void Alternation(StringBuilder output)
        {
            var branches = new List<StringBuilder> { new() };
            while (_at < pattern.Length && pattern[_at] != ')')
            {
                if (pattern[_at] == '|')
                {
                    _at++;
                    branches.Add(new StringBuilder());
                    continue;
                }
                Quantified(branches[^1]);
            }
            output.Append(branches[random.Next(branches.Count)]);
        }

        private void Quantified(StringBuilder output)
        {
            var start = _at;
            var atom = Atom();
            var (min, max) = Quantifier();
            if (min == 1 && max == 1)
            {
                output.Append(atom);
                return;
            }
            var count = random.Next(min, max + 1);
            for (var i = 0; i < count; i++)
            {
                var end = _at;
                _at = start;
                output.Append(Atom());
                _at = end;
            }
        }

        private string Atom()
        {
            var c = pattern[_at++];
            switch (c)
            {
                case '^' or '$':
                    return "";
                case '.':
                    return Printable[random.Next(52 + 10)].ToString();
                case '\\':
                    return Escape(pattern[_at++]).ToString();
                case '[':
                    return Class().ToString();
                case '(':
                    if (pattern[_at] == '?' && pattern[_at + 1] == '=')
                    {
                        // A lookahead (the phone's "(?=.{1,32}$)" length check) writes nothing: it is walked
                        // past, and the Regex check of each sample holds the string to it.
                        _at += 2;
                        Alternation(new StringBuilder());
                        _at++; // ')'
                        return "";
                    }
                    if (pattern[_at] == '?')
                    {
                        if (pattern[_at + 1] != ':')
                        {
                            throw new NotSupportedException();
                        }
                        _at += 2;
                    }
                    var group = new StringBuilder();
                    Alternation(group);
                    _at++; // ')'
                    return group.ToString();
                default:
                    return c.ToString();
            }
        }

        private (int Min, int Max) Quantifier()
        {
            if (_at >= pattern.Length)
            {
                return (1, 1);
            }
            (int, int)? quantifier = pattern[_at] switch
            {
                '?' => (0, 1),
                '*' => (0, 3),
                '+' => (1, 4),
                _ => null,
            };
            if (quantifier is { } simple)
            {
                _at++;
                return simple;
            }
            if (pattern[_at] != '{')
            {
                return (1, 1);
            }
            var close = pattern.IndexOf('}', _at);
            var parts = pattern[(_at + 1)..close].Split(',');
            _at = close + 1;
            var min = int.Parse(parts[0], System.Globalization.CultureInfo.InvariantCulture);
            var max = parts.Length == 1 ? min : parts[1].Length == 0 ? min + 3 : int.Parse(parts[1], System.Globalization.CultureInfo.InvariantCulture);
            return (min, max);
        }

        private char Escape(char c) => c switch
        {
            'd' => (char)('0' + random.Next(10)),
            'w' => Printable[random.Next(62)],
            's' => ' ',
            'D' or 'W' or 'S' or 'b' or 'B' => throw new NotSupportedException(),
            _ => c,
        };

        private char Class()
        {
            var negated = pattern[_at] == '^';
            if (negated)
            {
                _at++;
            }
            var members = new List<char>();
            while (pattern[_at] != ']' || members.Count == 0 && pattern[_at - 1] == '[')
            {
                var c = pattern[_at++];
                if (c == '\\')
                {
                    var e = pattern[_at++];
                    members.AddRange(e switch
                    {
                        'd' => "0123456789",
                        'w' => Printable[..62] + "_",
                        's' => " ",
                        _ => e.ToString(),
                    });
                }
                else if (pattern[_at] == '-' && pattern[_at + 1] != ']')
                {
                    var last = pattern[_at + 1];
                    _at += 2;
                    for (var x = c; x <= last; x++)
                    {
                        members.Add(x);
                    }
                }
                else
                {
                    members.Add(c);
                }
            }
            _at++; // ']'
            var pool = negated ? Printable.Where(p => !members.Contains(p)).ToList() : members;
            return pool[random.Next(pool.Count)];
        }
    }
}
