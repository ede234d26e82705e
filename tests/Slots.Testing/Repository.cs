namespace Slots.Testing;

/// <summary>Where the repository and its build outputs are, seen from a test assembly under artifacts/bin.</summary>
public static class Repository
{
    public static string Root { get; } = FindRoot();

    /// <summary>
    /// The built entry assembly of a project (artifacts/bin/NAME/PIVOT/NAME.dll), in the same
    /// configuration as the running tests; `dotnet build Slots.slnx` builds it first.
    /// </summary>
    public static string BuiltAssembly(string project)
    {
        var pivot = Path.GetFileName(Path.TrimEndingDirectorySeparator(AppContext.BaseDirectory));
        var expected = Path.Combine(Root, "artifacts", "bin", project, pivot, project + ".dll");
        if (File.Exists(expected))
        {
            return expected;
        }
        var any = Directory.Exists(Path.Combine(Root, "artifacts", "bin", project))
            ? Directory.GetFiles(Path.Combine(Root, "artifacts", "bin", project), project + ".dll", SearchOption.AllDirectories)
                .OrderByDescending(File.GetLastWriteTimeUtc).FirstOrDefault()
            : null;
        return any ?? throw new FileNotFoundException($"{project}.dll is not built; run `dotnet build Slots.slnx` first.", expected);
    }

    private static string FindRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Slots.slnx")))
            {
                return dir.FullName;
            }
        }
        throw new DirectoryNotFoundException($"No Slots.slnx above {AppContext.BaseDirectory}.");
    }
}
