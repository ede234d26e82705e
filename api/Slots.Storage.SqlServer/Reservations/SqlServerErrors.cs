using Microsoft.Data.SqlClient;

namespace Slots.Storage.SqlServer;

/// <summary>The SQL Server error numbers the adapter treats specially, and how to read them off an exception.</summary>
public static class SqlServerErrors
{
    /// <summary>
    /// In-Memory OLTP conflicts: the loser of a race fails at once and may simply try again.
    /// 41302 write-write conflict, 41305 repeatable-read validation, 41325 serializable
    /// validation, 41301 failed commit dependency, 41839 too many dependencies.
    /// </summary>
    public static readonly IReadOnlySet<int> Conflicts = new HashSet<int> { 41302, 41305, 41325, 41301, 41839 };

    /// <summary>
    /// Duplicate key on a hot table: a racer with the same idempotency key committed first. The
    /// retry replays its answer, so for reserve this is a conflict like the others.
    /// </summary>
    public static readonly IReadOnlySet<int> DuplicateKey = new HashSet<int> { 2627, 2601 };

    /// <summary>41823 / 41840: the memory-optimized data has reached its quota (Express: 352 MB per database, or the resource pool's limit).</summary>
    public static readonly IReadOnlySet<int> MemoryQuota = new HashSet<int> { 41823, 41840 };

    /// <summary>
    /// The error number that decides what to do: the first one of the exception's errors that
    /// is a conflict or a quota error (41302 often comes with a generic follow-up error), else
    /// the first; null when the exception is not from SQL Server.
    /// </summary>
    public static int? NumberOf(Exception exception)
    {
        if (exception is not SqlException sql)
        {
            return null;
        }
        foreach (SqlError error in sql.Errors)
        {
            if (Conflicts.Contains(error.Number) || MemoryQuota.Contains(error.Number) || DuplicateKey.Contains(error.Number))
            {
                return error.Number;
            }
        }
        return sql.Number;
    }
}
