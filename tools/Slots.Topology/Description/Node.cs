namespace Slots.Topology;

/// <summary>One part of the stack: what starts it, what it binds, the files written before it starts,
/// what it waits for, how its health is told, how it stops and where its process ids are found.</summary>
/// <param name="Start">The long-running process (or, for a job, the command that must exit 0); null for a gate,
/// which only waits for its <paramref name="Ready"/>.</param>
/// <param name="Init">Run once before the first start, when <paramref name="DataDir"/> holds no data yet (initdb).</param>
public sealed record Node(
    string Name,
    NodeKind Kind,
    Command? Start,
    IReadOnlyList<Port> Binds,
    IReadOnlyList<ConfigFile> Files,
    IReadOnlyList<Dependency> After,
    Health Ready,
    StopStyle Stop,
    PidSource Pid,
    string? DataDir = null,
    Command? Init = null);

/// <summary>A program with its arguments and the environment it gets on top of the caller's (in this order;
/// a key named twice keeps its last value, as env(1) does).</summary>
public sealed record Command(
    string File,
    IReadOnlyList<string> Args,
    IReadOnlyList<KeyValuePair<string, string>> Env,
    string? WorkDir = null,
    RunAs RunAs = RunAs.Caller)
{
    public Command(string file, params string[] args)
        : this(file, args, []) { }

    /// <summary>The environment as the process sees it: each key once, with its last value.</summary>
    public IReadOnlyDictionary<string, string> EffectiveEnv()
    {
        var map = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var (key, value) in Env)
        {
            map[key] = value;
        }

        return map;
    }
}

/// <summary>A port a node listens on; the label names it in "label: port N is in use by another process".</summary>
public sealed record Port(string Label, int Number);

/// <summary>A file written before the node starts. KeepIfExists: written only when missing (the Erlang cookie).</summary>
public sealed record ConfigFile(
    string Path,
    string Content,
    bool PostgresOwned = false,
    UnixFileMode? Mode = null,
    bool KeepIfExists = false);

public sealed record Dependency(string Node, Condition Condition);

/// <summary>Where the process ids of a part are found (`./slots stack pids PART`).</summary>
public abstract record PidSource
{
    /// <summary>pids/NAME.pid alone.</summary>
    public sealed record PidFile : PidSource;

    /// <summary>The PID file and that process's children (HAProxy's master and workers).</summary>
    public sealed record WithChildren : PidSource;

    /// <summary>The first line of DATA/postmaster.pid and its children (PostgreSQL under pg_ctl).</summary>
    public sealed record Postmaster(string DataDir) : PidSource;

    /// <summary>The server script's PID file, its children, and the Erlang VM of the node (beam.smp … NODE).</summary>
    public sealed record Beam(string NodeName) : PidSource;

    /// <summary>A job or a gate: nothing runs on.</summary>
    public sealed record None : PidSource;
}
