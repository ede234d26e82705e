using System.Text.RegularExpressions;
using Slots.Testing;

namespace Slots.Architecture.Tests;

/// <summary>
/// The storage backend is chosen in exactly one place (Slots.Hosting's StorageRegistration); each
/// backend names its own provider once. Nothing else branches on which database is running.
/// </summary>
public sealed partial class ProviderSwitchTests
{
    [Fact]
    public void Only_the_storage_registration_and_each_backend_name_a_provider()
    {
        var allowed = new Dictionary<string, int>(StringComparer.Ordinal)
        {
            ["api/Slots.Core/Storage/StorageOptions.cs"] = 1, // the default: the embedded backend
            ["api/Slots.Hosting/StorageRegistration.cs"] = 3,
            ["api/Slots.Storage.Sqlite/SqliteBackend.cs"] = 1,
            ["api/Slots.Storage.Postgres/PostgresBackend.cs"] = 1,
            ["api/Slots.Storage.SqlServer/SqlServerBackend.cs"] = 1,
        };
        var found = ProductionSources()
            .Select(f => (File: f, Count: ProviderValue().Count(File.ReadAllText(Path.Combine(Repository.Root, f)))))
            .Where(x => x.Count > 0)
            .ToDictionary(x => x.File, x => x.Count, StringComparer.Ordinal);
        Assert.Equal(allowed.OrderBy(x => x.Key), found.OrderBy(x => x.Key));
    }

    [Fact]
    public void No_code_asks_ef_core_which_provider_it_runs_on()
    {
        var asking = ProductionSources().Where(f => EfProviderQuestion().IsMatch(File.ReadAllText(Path.Combine(Repository.Root, f)))).ToList();
        Assert.Empty(asking);
    }

    [Fact]
    public void The_scan_sees_the_production_sources() =>
        // Guards the two tests above against passing on an empty file list.
        Assert.Contains("api/Slots.Core/Reservations/ReservationService.cs", ProductionSources());

    private static List<string> ProductionSources() =>
        new[] { "api", "scheduler" }
            .SelectMany(dir => Directory.EnumerateFiles(Path.Combine(Repository.Root, dir), "*.cs", SearchOption.AllDirectories))
            .Select(f => Path.GetRelativePath(Repository.Root, f).Replace('\\', '/'))
            .Where(f => !f.Contains("/obj/", StringComparison.Ordinal) && !f.Contains("/bin/", StringComparison.Ordinal))
            .ToList();

    [GeneratedRegex(@"StorageProvider\.(Sqlite|Postgres|SqlServer)\b")]
    private static partial Regex ProviderValue();

    [GeneratedRegex(@"\.(IsNpgsql|IsSqlite|IsSqlServer)\(")]
    private static partial Regex EfProviderQuestion();
}
