namespace Slots.Topology.Tests.Description;

/// <summary>The options that reproduce the captured script runs, and the changes the lead decided on
/// (issue 38 item 6), applied to the scripts' text one by one so each shows.</summary>
internal static class Golden
{
    public static StackOptions Options(Shape shape = Shape.Single, bool backup = false) => new()
    {
        Root = "/repo",
        StateDir = ScriptOutput.State,
        Shape = shape,
        PgBin = "/usr/lib/postgresql/15/bin",
        Backup = backup,
    };

    /// <summary>The file now names its writer, the description, instead of the script.</summary>
    public static string NewHeader(string text, string scriptHeader, string header)
    {
        Assert.StartsWith(scriptHeader + "\n", text);
        return header + text[scriptHeader.Length..];
    }

    /// <summary>Decision 1: initdb with ICU's root collation for the stack too, as the test servers have it.</summary>
    public static string IcuInitDb(string patroniYml) => InsertAfter(
        patroniYml, "    - locale: C.UTF-8\n", "    - locale-provider: icu\n    - icu-locale: und\n");

    /// <summary>Decision 2: the loopback RabbitMQ cluster pauses a minority, as compose's cluster.conf does.</summary>
    public static string PauseMinority(string rabbitConf) => InsertAfter(
        rabbitConf, "cluster_formation.classic_config.nodes.3 = slots-ha-3@localhost\n", "cluster_partition_handling = pause_minority\n");

    public static string[] Pairs(IEnumerable<KeyValuePair<string, string>> env) => [.. env.Select(p => $"{p.Key}={p.Value}")];

    /// <summary>What env(1) hands the program from "env K=V … PROGRAM ARGS": each key with its last value.</summary>
    public static Dictionary<string, string> EnvOf(IReadOnlyList<string> spawned)
    {
        Assert.Equal("env", spawned[0]);
        var map = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var assignment in spawned.Skip(1).TakeWhile(a => a.Contains('=', StringComparison.Ordinal)))
        {
            var at = assignment.IndexOf('=', StringComparison.Ordinal);
            map[assignment[..at]] = assignment[(at + 1)..];
        }

        return map;
    }

    public static string[] ProgramOf(IReadOnlyList<string> spawned) =>
        [.. spawned.Skip(1).SkipWhile(a => a.Contains('=', StringComparison.Ordinal))];

    private static string InsertAfter(string text, string anchor, string insert)
    {
        var at = text.IndexOf(anchor, StringComparison.Ordinal);
        Assert.True(at >= 0, $"the script's text has no line '{anchor.TrimEnd()}'");
        return text.Insert(at + anchor.Length, insert);
    }
}
