using System.Diagnostics;
using Slots.Topology.Run;

namespace Slots.LoadTest.Bench;

/// <summary>
/// What a benchmark verb runs on (./slots bench builds it in Release first): the repository, the build's artifacts
/// (the API beside this program), a scratch folder removed at the end, and the CPU split's taskset prefixes.
/// </summary>
internal sealed class BenchHost : IAsyncDisposable
{
    private readonly List<IAsyncDisposable> _owned = [];

    private BenchHost(string root, string artifacts, string work, CpuSplit split)
    {
        Root = root;
        Artifacts = artifacts;
        Work = work;
        Split = split;
    }

    /// <summary>The repository's root (the folder that holds Slots.slnx): loadtest/ scripts and haproxy/ are read from it.</summary>
    public string Root { get; }

    /// <summary>The artifacts folder this program was built into; the Release API is there too.</summary>
    public string Artifacts { get; }

    /// <summary>A scratch folder of this run (the postgres user may enter it), removed at the end unless SLOTS_BENCH_KEEP is 1.</summary>
    public string Work { get; }

    public CpuSplit Split { get; }

    public string ApiDll => Path.Combine(Artifacts, "bin", "Slots.Api", "release", "Slots.Api.dll");

    /// <summary>A host for one run: <paramref name="prefix"/> names its scratch folder under /tmp.</summary>
    public static BenchHost Open(string prefix, CpuSplit split)
    {
        var root = FindRoot(Environment.CurrentDirectory) ?? FindRoot(AppContext.BaseDirectory)
            ?? throw new InvalidOperationException("Run the benchmark from the repository (no Slots.slnx above the current folder).");
        // This program lives in ARTIFACTS/bin/Slots.LoadTest/<configuration>/.
        var artifacts = Path.GetFullPath(Path.Combine(AppContext.BaseDirectory, "..", "..", ".."));
        var work = Directory.CreateTempSubdirectory($"slots-{prefix}-").FullName;
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(work, (UnixFileMode)0b111_101_101); // 755: a PostgreSQL of its own keeps its data inside
        }
        return new BenchHost(root, artifacts, work, split);
    }

    /// <summary>Stopped, in reverse order, when the host is disposed.</summary>
    public T Own<T>(T part) where T : IAsyncDisposable
    {
        _owned.Add(part);
        return part;
    }

    /// <summary>
    /// This program again with another verb (the generator, the seeder, the summary), on the generator's CPUs, its output on
    /// this console; its exit code. A process of its own per run, as each run's socket settings are read once per process.
    /// </summary>
    public async Task<int> GeneratorAsync(IEnumerable<string> args, CancellationToken ct, string? outputFile = null)
    {
        var self = Environment.ProcessPath ?? "dotnet";
        IEnumerable<string> prefix = Path.GetFileNameWithoutExtension(self) == "dotnet"
            ? [typeof(BenchHost).Assembly.Location]
            : [];
        return await RunAsync([.. Split.Generator, self, .. prefix, .. args], ct, outputFile);
    }

    /// <summary>
    /// <see cref="GeneratorAsync"/> with its output in <paramref name="outputFile"/>, for a step the study cannot go on
    /// without (the seed, a reset): a non-zero exit throws with the output's last lines.
    /// </summary>
    public async Task MustGeneratorAsync(IEnumerable<string> args, string outputFile, CancellationToken ct)
    {
        if (await GeneratorAsync(args, ct, outputFile) is var code and not 0)
        {
            throw new InvalidOperationException($"{string.Join(' ', args.Take(1))} exited with {code}:\n{string.Join('\n', File.ReadLines(outputFile).TakeLast(20))}");
        }
    }

    /// <summary>A tool run to its end with its output on this console (or in <paramref name="outputFile"/>); its exit code.</summary>
    public async Task<int> RunAsync(IReadOnlyList<string> command, CancellationToken ct, string? outputFile = null, IReadOnlyDictionary<string, string>? environment = null)
    {
        var start = new ProcessStartInfo(command[0]) { UseShellExecute = false, WorkingDirectory = Root, RedirectStandardOutput = outputFile is not null };
        foreach (var arg in command.Skip(1))
        {
            start.ArgumentList.Add(arg);
        }
        foreach (var (key, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[key] = value;
        }
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{command[0]} did not start");
        var output = outputFile is null ? Task.CompletedTask : WriteOutputAsync(process, outputFile);
        try
        {
            await process.WaitForExitAsync(ct);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }
        await output;
        return process.ExitCode;
    }

    /// <summary>CPU seconds a process has used so far (user and system, from /proc; clock ticks of 1/100 s).</summary>
    public static double CpuSeconds(int pid) =>
        (Reporting.ProcessSampler.ParseStat(File.ReadAllText($"/proc/{pid}/stat"))?.CpuTicks
            ?? throw new InvalidOperationException($"/proc/{pid}/stat could not be read.")) / 100.0;

    /// <summary>Whether a program of that name is on the PATH (wrk, taskset, haproxy).</summary>
    public static bool OnPath(string program) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries).Any(dir => File.Exists(Path.Combine(dir, program)));

    public async ValueTask DisposeAsync()
    {
        for (var i = _owned.Count - 1; i >= 0; i--)
        {
            try
            {
                await _owned[i].DisposeAsync();
            }
            catch (Exception ex)
            {
                Console.Error.WriteLine($"   (stopping a part failed: {ex.Message})");
            }
        }
        if (Environment.GetEnvironmentVariable("SLOTS_BENCH_KEEP") == "1")
        {
            Console.Error.WriteLine($"   (the run's scratch folder kept: {Work})");
            return;
        }
        try
        {
            Directory.Delete(Work, recursive: true);
        }
        catch (IOException)
        {
            // A server still closing a file: the folder stays in /tmp.
        }
    }

    private static async Task WriteOutputAsync(Process process, string path)
    {
        await using var file = File.Create(path);
        await process.StandardOutput.BaseStream.CopyToAsync(file);
    }

    private static string? FindRoot(string from)
    {
        for (var dir = new DirectoryInfo(from); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Slots.slnx")))
            {
                return dir.FullName;
            }
        }
        return null;
    }

    /// <summary>A port nobody listens on now, on loopback.</summary>
    public static int FreePort() => ChildProcess.FreePort();
}
