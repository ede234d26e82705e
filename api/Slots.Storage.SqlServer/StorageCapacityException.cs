using System.Data.Common;

namespace Slots.Storage.SqlServer;

/// <summary>
/// The hot tables are out of memory (SQL Server 41823 / 41840). A DbException, so the API's
/// database handler answers 503 with Retry-After: nothing was written, and the operator must
/// raise the memory quota or shrink the window.
/// </summary>
public sealed class StorageCapacityException : DbException
{
    public StorageCapacityException(int errorNumber, Exception inner)
        : base($"The hot tables have reached their memory quota (SQL Server error {errorNumber}).", inner) =>
        ErrorNumber = errorNumber;

    public StorageCapacityException() : base("The hot tables have reached their memory quota.") { }

    public StorageCapacityException(string message) : base(message) { }

    public StorageCapacityException(string message, Exception inner) : base(message, inner) { }

    public int ErrorNumber { get; }
}

/// <summary>
/// Conflicts went on past the retries for an operation that has no business answer for it
/// (cancel). A DbException, so the API answers 503 and the client retries later.
/// </summary>
public sealed class StorageConflictException : DbException
{
    public StorageConflictException(int errorNumber, Exception inner)
        : base($"The operation kept conflicting with concurrent writers (SQL Server error {errorNumber}).", inner) =>
        ErrorNumber = errorNumber;

    public StorageConflictException() : base("The operation kept conflicting with concurrent writers.") { }

    public StorageConflictException(string message) : base(message) { }

    public StorageConflictException(string message, Exception inner) : base(message, inner) { }

    public int ErrorNumber { get; }
}
