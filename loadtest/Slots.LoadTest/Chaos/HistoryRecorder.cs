using System.Diagnostics;

namespace Slots.LoadTest.Chaos;

/// <summary>
/// The history as it happens: one clock for the workload and the nemesis, ids in invoke order,
/// every operation and fault written as a JSON line at once, so a run that dies still leaves its history.
/// </summary>
public sealed class HistoryRecorder : IDisposable
{
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private readonly StreamWriter _ops;
    private readonly StreamWriter _faults;
    private readonly List<Operation> _history = [];
    private readonly List<Fault> _faultList = [];
    private long _nextId;

    public HistoryRecorder(string folder)
    {
        Directory.CreateDirectory(folder);
        _ops = new StreamWriter(Path.Combine(folder, HistoryFileName)) { AutoFlush = true };
        _faults = new StreamWriter(Path.Combine(folder, FaultsFileName)) { AutoFlush = true };
    }

    public const string HistoryFileName = "history.jsonl";
    public const string FaultsFileName = "faults.jsonl";
    public const string JobRunsFileName = "job-runs.jsonl";

    public long NowMs => _clock.ElapsedMilliseconds;

    public long NextId() => Interlocked.Increment(ref _nextId);

    public void Record(Operation op)
    {
        lock (_history)
        {
            _history.Add(op);
            _ops.WriteLine(HistoryFile.Line(op));
        }
    }

    public void Record(Fault fault)
    {
        lock (_faultList)
        {
            _faultList.Add(fault);
            _faults.WriteLine(HistoryFile.Line(fault));
        }
    }

    public IReadOnlyList<Operation> Operations
    {
        get
        {
            lock (_history)
            {
                return [.. _history];
            }
        }
    }

    public IReadOnlyList<Fault> Faults
    {
        get
        {
            lock (_faultList)
            {
                return [.. _faultList];
            }
        }
    }

    public void Dispose()
    {
        _ops.Dispose();
        _faults.Dispose();
    }
}
