namespace Slots.Storage.SqlServer.Tests.Adapter;

/// <summary>Stands in for a SqlException with the given error number (SqlException has no public constructor).</summary>
public sealed class FakeSqlErrorException(int number) : Exception($"fake SQL Server error {number}")
{
    public int Number { get; } = number;

    public static int? NumberOf(Exception e) => (e as FakeSqlErrorException)?.Number;
}

/// <summary>An operation that fails with the given error numbers, in order, then answers.</summary>
public sealed class FailingOperation<T>(T answer, params int[] failures)
{
    public int Calls { get; private set; }

    public ValueTask<T> RunAsync(CancellationToken ct)
    {
        ct.ThrowIfCancellationRequested();
        var call = Calls++;
        return call < failures.Length ? throw new FakeSqlErrorException(failures[call]) : ValueTask.FromResult(answer);
    }
}
