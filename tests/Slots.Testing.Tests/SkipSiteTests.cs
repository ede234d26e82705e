using System.Text.RegularExpressions;

namespace Slots.Testing.Tests;

/// <summary>
/// Every skip goes through <see cref="Unavailable"/>, which fails under CI, except the few that may skip
/// there too, each named here with its reason. A new `Assert.Skip` elsewhere fails this test.
/// </summary>
public sealed partial class SkipSiteTests
{
    private static readonly Dictionary<string, string> AllowedToSkip = new(StringComparer.Ordinal)
    {
        ["tests/Slots.Testing/Unavailable.cs"] = "the helper itself: skips outside CI, fails under it",
        ["tests/Slots.Storage.SqlServer.Tests/Contract/SqlServerDatabase.cs"] = "SQL Server: no server on the machines here (SLOTS_SQLSERVER)",
        ["tests/Slots.Storage.SqlServer.Tests/SqlServerBackend.cs"] = "SQL Server: no server on the machines here (SLOTS_SQLSERVER)",
        ["tests/Slots.LoadTest.Tests/Chaos/NemesisTests.cs"] = "reads /proc: skips only off Linux, and CI runs on Linux",
        ["frontend/e2e/door.ts"] = "the staff screens' skipOrFail: skips outside CI, fails under it, as Unavailable does",
    };

    [Fact]
    public void Only_the_named_files_may_skip_a_test()
    {
        var skipping = Sources()
            .Where(file => SkipCall().IsMatch(File.ReadAllText(file)))
            .Select(file => Path.GetRelativePath(Repository.Root, file).Replace('\\', '/'))
            .Where(path => path != "tests/Slots.Testing.Tests/SkipSiteTests.cs")
            .Order(StringComparer.Ordinal)
            .ToList();

        Assert.Empty(skipping.Except(AllowedToSkip.Keys));
        Assert.Contains("tests/Slots.Storage.SqlServer.Tests/Contract/SqlServerDatabase.cs", skipping);   // the search finds what it looks for
    }

    private static IEnumerable<string> Sources()
    {
        var tests = Directory.EnumerateFiles(Path.Combine(Repository.Root, "tests"), "*.cs", SearchOption.AllDirectories);
        var e2e = Directory.EnumerateFiles(Path.Combine(Repository.Root, "frontend", "e2e"), "*.ts", SearchOption.AllDirectories);
        return tests.Concat(e2e).Where(f => !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
            && !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal));
    }

    // xunit: Assert.Skip/SkipWhen/SkipUnless, a dynamic skip exception, [Fact(Skip = ...)]; vitest: ctx.skip, it.skip, skipIf.
    [GeneratedRegex(@"Assert\.Skip(When|Unless)?\s*\(|SkipException\.ForSkip|\bSkip(When|Unless)?\s*=\s*|\bctx\.skip\(|\b(it|test|describe)\.(skip|skipIf|todo)\b|\.skipIf\(")]
    private static partial Regex SkipCall();
}
