using Microsoft.Extensions.Configuration;

namespace Slots.Storage;

/// <summary>How an API instance groups its hot-path writes (<see cref="GroupCommit{TOperation, TAnswer}"/>).</summary>
public class GroupCommitOptions
{
    /// <summary>Batches in flight at once, each on its own connection: a handful, sized to the cores.</summary>
    public int Writers { get; set; } = Math.Clamp(Environment.ProcessorCount / 4, 1, 4);

    /// <summary>Most operations in one batch.</summary>
    public int MaxBatch { get; set; } = 256;

    /// <summary>The options in <paramref name="section"/> (defaults where it names none), refused at start when out of range.</summary>
    public static T Read<T>(IConfiguration configuration, string section) where T : GroupCommitOptions, new()
    {
        var options = configuration.GetSection(section).Get<T>() ?? new T();
        if (options.Writers is < 1 or > 64 || options.MaxBatch is < 1 or > 10_000)
        {
            throw new InvalidOperationException($"{section}: Writers must be 1..64 and MaxBatch 1..10000.");
        }
        return options;
    }
}
