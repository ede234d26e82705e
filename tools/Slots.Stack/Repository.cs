namespace Slots.Stack;

/// <summary>The repository root: haproxy/haproxy.cfg, scripts/tls.sh and the hosts' artifacts are found from it.</summary>
internal static class Repository
{
    /// <summary>SLOTS_ROOT, else the folder above this tool's own that holds Slots.slnx, else the working folder.</summary>
    public static string Root()
    {
        if (Environment.GetEnvironmentVariable("SLOTS_ROOT") is { Length: > 0 } root)
        {
            return Path.GetFullPath(root);
        }

        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Slots.slnx")))
            {
                return dir.FullName;
            }
        }

        return Directory.GetCurrentDirectory();
    }
}
