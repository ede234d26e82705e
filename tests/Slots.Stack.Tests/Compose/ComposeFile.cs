using Slots.Testing;
using YamlDotNet.RepresentationModel;

namespace Slots.Stack.Tests.Compose;

/// <summary>
/// docker-compose.yml read as compose reads it: YAML merge keys (&lt;&lt;: *anchor) applied, explicit keys
/// winning over merged ones, at every level a test looks at.
/// </summary>
internal static class ComposeFile
{
    public static readonly string Path = System.IO.Path.Combine(Repository.Root, "docker-compose.yml");

    public static readonly IReadOnlyDictionary<string, YamlMappingNode> Services = Load();

    private static Dictionary<string, YamlMappingNode> Load()
    {
        var yaml = new YamlStream();
        using var reader = new StringReader(File.ReadAllText(Path));
        yaml.Load(reader);
        var services = (YamlMappingNode)((YamlMappingNode)yaml.Documents[0].RootNode)["services"];
        return services.Children.ToDictionary(s => ((YamlScalarNode)s.Key).Value!, s => Merged((YamlMappingNode)s.Value));
    }

    /// <summary>A mapping with its merge key applied: the merged mapping's keys first, its own keys over them.</summary>
    public static YamlMappingNode Merged(YamlMappingNode node)
    {
        var merge = new YamlScalarNode("<<");
        if (!node.Children.TryGetValue(merge, out var source))
        {
            return node;
        }
        var result = new YamlMappingNode();
        foreach (var (key, value) in Merged((YamlMappingNode)source).Children)
        {
            result.Children[key] = value;
        }
        foreach (var (key, value) in node.Children.Where(c => !c.Key.Equals(merge)))
        {
            result.Children[key] = value;
        }
        return result;
    }

    /// <summary>The services of a profile; null: the services without one, which a plain `docker compose up` starts.</summary>
    public static IReadOnlyList<string> InProfile(string? profile) =>
        [.. Services.Where(s => Profiles(s.Key).Count == 0 ? profile is null : profile is not null && Profiles(s.Key).Contains(profile))
            .Select(s => s.Key).Order(StringComparer.Ordinal)];

    public static IReadOnlyList<string> Profiles(string service) =>
        Child(Services[service], "profiles") is YamlSequenceNode list ? [.. list.Children.Select(c => ((YamlScalarNode)c).Value!)] : [];

    public static YamlNode? Child(YamlNode node, params string[] path)
    {
        foreach (var key in path)
        {
            if (node is not YamlMappingNode map || !Merged(map).Children.TryGetValue(new YamlScalarNode(key), out var next))
            {
                return null;
            }
            node = next;
        }
        return node;
    }

    public static string? Scalar(string service, params string[] path) => (Child(Services[service], path) as YamlScalarNode)?.Value;

    public static IReadOnlyList<string> List(string service, string key) =>
        Child(Services[service], key) is YamlSequenceNode list ? [.. list.Children.Select(c => ((YamlScalarNode)c).Value!)] : [];

    /// <summary>A service's environment, merge keys applied.</summary>
    public static IReadOnlyDictionary<string, string?> Environment(string service) =>
        Child(Services[service], "environment") is YamlMappingNode env
            ? Merged(env).Children.ToDictionary(e => ((YamlScalarNode)e.Key).Value!, e => ((YamlScalarNode)e.Value).Value)
            : new Dictionary<string, string?>();

    /// <summary>The services a service waits for, with the condition of each.</summary>
    public static IReadOnlyDictionary<string, string?> DependsOn(string service) =>
        Child(Services[service], "depends_on") switch
        {
            YamlMappingNode map => map.Children.ToDictionary(d => ((YamlScalarNode)d.Key).Value!, d => (Child(d.Value, "condition") as YamlScalarNode)?.Value),
            YamlSequenceNode list => list.Children.ToDictionary(d => ((YamlScalarNode)d).Value!, _ => (string?)"service_started"),
            _ => new Dictionary<string, string?>(),
        };

    /// <summary>Every scalar under a service, for checks on the variables it uses.</summary>
    public static IEnumerable<string> Scalars(YamlNode node) => node switch
    {
        YamlScalarNode scalar => scalar.Value is { } value ? [value] : [],
        YamlSequenceNode list => list.Children.SelectMany(Scalars),
        YamlMappingNode map => Merged(map).Children.SelectMany(c => Scalars(c.Key).Concat(Scalars(c.Value))),
        _ => [],
    };
}
