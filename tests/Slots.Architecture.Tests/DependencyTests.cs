using System.Reflection;
using System.Xml.Linq;
using Slots.Testing;

namespace Slots.Architecture.Tests;

/// <summary>
/// The domain (Slots.Core) and the hosts (Slots.Api, Slots.Scheduler) reach databases and brokers
/// only through the ports the domain names; the adapters live in Slots.Storage.* and
/// Slots.Sms.RabbitMq. Checked twice: the project files ask for no such package, and the built
/// assemblies reference no such assembly.
/// </summary>
public sealed class DependencyTests
{
    /// <summary>Database drivers, EF Core providers and broker clients, by package or assembly name prefix.</summary>
    private static readonly string[] Adapters =
    [
        "Microsoft.Data.Sqlite", "SQLitePCLRaw", "Npgsql", "Microsoft.Data.SqlClient", "System.Data.SqlClient",
        "Microsoft.EntityFrameworkCore.Sqlite", "Microsoft.EntityFrameworkCore.SqlServer", "Npgsql.EntityFrameworkCore",
        "RabbitMQ.Client",
    ];

    public static TheoryData<string> Hosts => new() { "api/Slots.Core", "api/Slots.Api", "scheduler/Slots.Scheduler" };

    [Theory]
    [MemberData(nameof(Hosts))]
    public void Project_file_references_no_driver_broker_or_ef_provider(string project)
    {
        var packages = PackageReferences(project);
        Assert.DoesNotContain(packages, IsAdapter);
    }

    [Fact]
    public void Core_project_references_no_ef_core_at_all() =>
        Assert.DoesNotContain(PackageReferences("api/Slots.Core"), p => p.StartsWith("Microsoft.EntityFrameworkCore", StringComparison.Ordinal));

    [Fact]
    public void Core_project_references_no_other_project() =>
        Assert.Empty(ProjectFile("api/Slots.Core").Descendants("ProjectReference"));

    // The vaccine-finder publication speaks FHIR at the edge (api/Slots.Api/Finders); the domain stays free of it.
    [Fact]
    public void Core_references_no_fhir_sdk()
    {
        Assert.DoesNotContain(PackageReferences("api/Slots.Core"), p => p.StartsWith("Hl7.Fhir", StringComparison.OrdinalIgnoreCase));
        var referenced = typeof(Slots.Reservations.ReservationService).Assembly.GetReferencedAssemblies().Select(a => a.Name!);
        Assert.DoesNotContain(referenced, a => a.StartsWith("Hl7.Fhir", StringComparison.OrdinalIgnoreCase));
    }

    [Fact]
    public void Core_assembly_references_no_driver_broker_or_ef_assembly()
    {
        var referenced = typeof(Slots.Reservations.ReservationService).Assembly.GetReferencedAssemblies().Select(a => a.Name!).ToList();
        Assert.DoesNotContain(referenced, a => IsAdapter(a) || a.StartsWith("Microsoft.EntityFrameworkCore", StringComparison.Ordinal));
    }

    [Fact]
    public void Api_and_scheduler_assemblies_reference_no_driver_or_broker_assembly()
    {
        var api = Assembly.Load("Slots.Api").GetReferencedAssemblies().Select(a => a.Name!);
        var scheduler = Assembly.Load("Slots.Scheduler").GetReferencedAssemblies().Select(a => a.Name!);
        Assert.DoesNotContain(api.Concat(scheduler), IsAdapter);
    }

    [Fact]
    public void The_adapter_check_recognises_each_backend_projects_driver()
    {
        // The check above is only as good as its list: every backend's own driver must be on it.
        foreach (var backend in new[] { "api/Slots.Storage.Sqlite", "api/Slots.Storage.Postgres", "api/Slots.Storage.SqlServer", "api/Slots.Sms.RabbitMq" })
        {
            Assert.Contains(PackageReferences(backend), IsAdapter);
        }
    }

    // The loopback stack's description and runtime (tools/Slots.Topology) start the hosts from outside; a host that
    // referenced it would carry process launching and the stack's ports into what ships.
    [Fact]
    public void No_api_or_scheduler_project_references_the_topology_tool()
    {
        var hosts = new[] { "api", "scheduler" }
            .SelectMany(folder => Directory.EnumerateFiles(Path.Combine(Repository.Root, folder), "*.csproj", SearchOption.AllDirectories))
            .ToList();

        Assert.NotEmpty(hosts);
        Assert.All(hosts, project => Assert.DoesNotContain(ProjectReferences(project), IsTopology));
        // The check finds what it looks for: the stack's command line references the library.
        Assert.Contains(ProjectReferences(Path.Combine(Repository.Root, "tools", "Slots.Stack", "Slots.Stack.csproj")), IsTopology);
    }

    [Fact]
    public void Api_and_scheduler_assemblies_do_not_reference_the_topology_tool()
    {
        var api = Assembly.Load("Slots.Api").GetReferencedAssemblies().Select(a => a.Name!);
        var scheduler = Assembly.Load("Slots.Scheduler").GetReferencedAssemblies().Select(a => a.Name!);
        Assert.DoesNotContain("Slots.Topology", api.Concat(scheduler));
    }

    private static bool IsTopology(string reference) => reference.Contains("Slots.Topology", StringComparison.Ordinal);

    private static List<string> ProjectReferences(string path) =>
        XDocument.Load(path).Descendants("ProjectReference").Select(p => (string)p.Attribute("Include")!).ToList();

    internal static bool IsAdapter(string name) => Adapters.Any(a => name.StartsWith(a, StringComparison.OrdinalIgnoreCase));

    internal static List<string> PackageReferences(string project) =>
        ProjectFile(project).Descendants("PackageReference").Select(p => (string)p.Attribute("Include")!).ToList();

    private static XDocument ProjectFile(string project)
    {
        var path = Path.Combine(Repository.Root, project, Path.GetFileName(project) + ".csproj");
        return XDocument.Load(path);
    }
}
