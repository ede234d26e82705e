namespace Slots.Topology;

/// <summary>Where a started stack is reached.</summary>
/// <param name="CaPath">The local CA to trust; null when HAProxy serves a certificate of one's own.</param>
public sealed record Endpoints(IReadOnlyList<Uri> Fronts, string Database, string Amqp, string? CaPath, string StateDir);

/// <summary>A stack described: its nodes in the order the scripts start them, each with what it waits for.</summary>
public sealed record Topology(StackOptions Options, IReadOnlyList<Node> Nodes, Endpoints Endpoints)
{
    public static Topology Describe(StackOptions options)
    {
        options.Validate();
        var nodes = options.Shape switch
        {
            Shape.Single => SingleShape.Nodes(options),
            Shape.Ha => HaShape.Nodes(options),
            _ => throw new ArgumentOutOfRangeException(nameof(options), options.Shape, "unknown shape"),
        };
        var fronts = options.Shape == Shape.Ha
            ? new[] { options.Ports.Front, options.Ports.Front2 }
            : [options.Ports.Front];
        var endpoints = new Endpoints(
            [.. fronts.Select(p => new Uri($"https://{HaproxyEnvironment.Loopback(p)}/"))],
            AppEnvironment.Database(options),
            AppEnvironment.Amqp(options),
            options.TlsCert is null ? Path.Combine(options.Tls, "ca.crt") : null,
            options.StateDir);
        return new Topology(options, nodes, endpoints);
    }

    public Node this[string name] => Nodes.Single(n => n.Name == name);

    /// <summary>The nodes in waves: each wave's nodes wait only for nodes of earlier waves, so a wave starts
    /// together. Throws on a dependency cycle or on a dependency that names no node.</summary>
    public IReadOnlyList<IReadOnlyList<Node>> Waves()
    {
        var names = Nodes.Select(n => n.Name).ToHashSet(StringComparer.Ordinal);
        foreach (var node in Nodes)
        {
            var unknown = node.After.FirstOrDefault(d => !names.Contains(d.Node));
            if (unknown is not null)
            {
                throw new InvalidOperationException($"{node.Name} waits for {unknown.Node}, which is not in the stack.");
            }
        }

        var placed = new HashSet<string>(StringComparer.Ordinal);
        var waves = new List<IReadOnlyList<Node>>();
        while (placed.Count < Nodes.Count)
        {
            var wave = Nodes.Where(n => !placed.Contains(n.Name) && n.After.All(d => placed.Contains(d.Node))).ToList();
            if (wave.Count == 0)
            {
                throw new InvalidOperationException(
                    $"The dependencies form a cycle among {string.Join(", ", Nodes.Where(n => !placed.Contains(n.Name)).Select(n => n.Name))}.");
            }

            placed.UnionWith(wave.Select(n => n.Name));
            waves.Add(wave);
        }

        return waves;
    }
}
