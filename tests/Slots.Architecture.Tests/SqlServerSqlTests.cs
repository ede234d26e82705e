using System.Text;
using System.Text.RegularExpressions;
using Slots.Testing;

namespace Slots.Architecture.Tests;

/// <summary>
/// SQL Server's T-SQL lives in sql/ and nowhere else (issue 38): the adapter calls procs by name, and
/// what is not about the hot seats goes through the shared EF Core store. A string literal in
/// api/Slots.Storage.SqlServer that holds a T-SQL statement fails here, unless its file is on the
/// allow-list below, which names what is still to move.
/// </summary>
public sealed partial class SqlServerSqlTests
{
    private const string Adapter = "api/Slots.Storage.SqlServer";

    /// <summary>
    /// Files that still send inline T-SQL, each to move to the shared EF Core store or to a proc in
    /// sql/ (issue 38); remove a file from here when it is moved, and the test holds it. Empty since
    /// the SMS store, the waiting room, the readiness ping and the migrator's own batches moved to sql/.
    /// </summary>
    public static readonly string[] NotMovedYet = [];

    /// <summary>A statement's opening keyword, as the scripts write it (upper case), followed by what a statement has next.</summary>
    [GeneratedRegex(@"\b(SELECT|INSERT|UPDATE|DELETE|MERGE|EXEC|EXECUTE|DECLARE|TRUNCATE|CREATE|ALTER|DROP|WITH)\s+[\w@#\[(*]", RegexOptions.CultureInvariant)]
    private static partial Regex Statement();

    public static TheoryData<string> Files() =>
        [.. Directory.GetFiles(Path.Combine(Repository.Root, Adapter), "*.cs", SearchOption.AllDirectories)
            .Where(f => !f.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj"))
            .Select(f => Path.GetRelativePath(Path.Combine(Repository.Root, Adapter), f).Replace(Path.DirectorySeparatorChar, '/'))
            .Order(StringComparer.Ordinal)];

    [Theory]
    [MemberData(nameof(Files))]
    public void No_string_literal_in_the_SQL_Server_adapter_holds_a_T_SQL_statement_outside_the_allow_list(string file)
    {
        var statements = Literals(File.ReadAllText(Path.Combine(Repository.Root, Adapter, file)))
            .Where(l => Statement().IsMatch(l.Text))
            .Select(l => $"{file}:{l.Line}: {Statement().Match(l.Text).Value}…")
            .ToList();

        if (NotMovedYet.Contains(file))
        {
            // An allow-listed file that no longer sends T-SQL must leave the list, so the test holds it.
            Assert.True(statements.Count > 0, $"{file} sends no inline T-SQL any more: take it off {nameof(NotMovedYet)}.");
        }
        else
        {
            Assert.Empty(statements);
        }
    }

    [Fact]
    public void The_allow_list_names_only_files_that_exist() =>
        Assert.All(NotMovedYet, f => Assert.True(File.Exists(Path.Combine(Repository.Root, Adapter, f)), $"{f} is not in {Adapter}"));

    [Theory]
    [InlineData("var c = new SqlCommand(\"SELECT id FROM dbo.places\", connection);", "SELECT id FROM dbo.places")]
    [InlineData("const string S = \"\"\"\n    UPDATE dbo.waitlist SET state = 4\n    \"\"\";", "UPDATE dbo.waitlist SET state = 4")]
    [InlineData("var s = @\"DELETE dbo.outbox WHERE \"\"id\"\" = @id\";", "DELETE dbo.outbox WHERE \"id\" = @id")]
    [InlineData("var s = $\"INSERT dbo.x VALUES ({n})\";", "INSERT dbo.x VALUES ({n})")]
    public void The_scan_finds_a_statement_in_each_kind_of_string_literal(string source, string expected)
    {
        var literal = Assert.Single(Literals(source));

        Assert.Equal(expected, literal.Text.Trim());
        Assert.Matches(Statement(), literal.Text);
    }

    [Theory]
    [InlineData("// SELECT the rows first\nvar s = 1;")]
    [InlineData("/// <summary>UPDATE hot_seats on a claim</summary>\nvoid M() { }")]
    [InlineData("var proc = new SqlCommand(\"dbo.waitlist_claim\") { CommandType = CommandType.StoredProcedure };")]
    [InlineData("throw new InvalidOperationException($\"dbo.staff_check_in answered unknown status {s}.\");")]
    [InlineData("var c = '\"'; var d = \"select the place\";")]
    public void Comments_proc_names_and_prose_are_not_statements(string source) =>
        Assert.DoesNotContain(Literals(source), l => Statement().IsMatch(l.Text));

    /// <summary>The string literals of a C# source, with the line each starts on (comments and char literals skipped).</summary>
    public static List<(int Line, string Text)> Literals(string source)
    {
        var found = new List<(int, string)>();
        var line = 1;
        for (var i = 0; i < source.Length; i++)
        {
            var c = source[i];
            if (c == '\n')
            {
                line++;
            }
            else if (c == '/' && At(source, i + 1) == '/')
            {
                i = source.IndexOf('\n', i) is var end and >= 0 ? end - 1 : source.Length;
            }
            else if (c == '/' && At(source, i + 1) == '*')
            {
                var end = source.IndexOf("*/", i + 2, StringComparison.Ordinal);
                end = end < 0 ? source.Length : end + 1;
                line += source.AsSpan(i, end - i).Count('\n');
                i = end;
            }
            else if (c == '\'')
            {
                i += At(source, i + 1) == '\\' ? 3 : 2; // 'x' or '\x'
            }
            else if (c == '"')
            {
                var verbatim = Prefix(source, i).Contains('@');
                var (text, end) = source.AsSpan(i).StartsWith("\"\"\"") ? Raw(source, i) : verbatim ? Verbatim(source, i) : Regular(source, i);
                found.Add((line, text));
                line += source.AsSpan(i, end - i).Count('\n');
                i = end - 1;
            }
        }
        return found;
    }

    private static char At(string s, int i) => i < s.Length ? s[i] : '\0';

    /// <summary>The $ and @ just before a literal's opening quote.</summary>
    private static string Prefix(string s, int quote)
    {
        var start = quote;
        while (start > 0 && s[start - 1] is '$' or '@')
        {
            start--;
        }
        return s[start..quote];
    }

    private static (string Text, int End) Regular(string s, int quote)
    {
        var text = new StringBuilder();
        for (var i = quote + 1; i < s.Length; i++)
        {
            if (s[i] == '\\')
            {
                text.Append(s[++i]);
            }
            else if (s[i] == '"' || s[i] == '\n')
            {
                return (text.ToString(), i + 1);
            }
            else
            {
                text.Append(s[i]);
            }
        }
        return (text.ToString(), s.Length);
    }

    private static (string Text, int End) Verbatim(string s, int quote)
    {
        var text = new StringBuilder();
        for (var i = quote + 1; i < s.Length; i++)
        {
            if (s[i] == '"' && At(s, i + 1) == '"')
            {
                text.Append('"');
                i++;
            }
            else if (s[i] == '"')
            {
                return (text.ToString(), i + 1);
            }
            else
            {
                text.Append(s[i]);
            }
        }
        return (text.ToString(), s.Length);
    }

    private static (string Text, int End) Raw(string s, int quote)
    {
        var fence = 0;
        while (At(s, quote + fence) == '"')
        {
            fence++;
        }
        var close = s.IndexOf(new string('"', fence), quote + fence, StringComparison.Ordinal);
        close = close < 0 ? s.Length : close;
        return (s[(quote + fence)..close], Math.Min(s.Length, close + fence));
    }
}
