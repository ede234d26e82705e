using System.Reflection;
using System.Text;
using System.Text.RegularExpressions;
using Microsoft.Data.SqlClient;

namespace Slots.Storage.SqlServer;

/// <summary>
/// Applies the embedded sql/NNN_*.sql scripts, recording what ran, with the SHA-256 of its text, in
/// dbo.schema_migrations. Its own lock, bookkeeping and CREATE DATABASE are the batches of
/// sql/migrator/ (embedded too), which run before any numbered script. Scripts are split on GO
/// lines, as sqlcmd does. A script runs without a wrapping transaction (ALTER DATABASE and memory-optimized DDL refuse one); every script is
/// written to be safe to re-run, so a crash half-way is repaired by the next run.
/// A procedure script (NNN_proc_*.sql, CREATE OR ALTER) is the one live definition of its procs:
/// when its text changes it runs again, and so does every procedure script after it, so a later
/// script that redefines the same proc still has the last word. Any other script (the schema:
/// tables, types, indexes, data moves) runs once; a change to a table is a new script.
/// The schema scripts go first, in file order, then the procedure scripts, in file order, as
/// PostgresSchema applies its numbered scripts before its functions: a proc that comes to read a
/// column a later table script adds (100_alter_hot_seats_hold.sql) compiles against it.
/// </summary>
public static partial class SqlServerMigrator
{
    private const string Prefix = "sqlserver/";

    /// <summary>The migrator's own batches (sql/migrator/), which run before any numbered script.</summary>
    private const string OwnPrefix = "sqlserver-migrator/";

    /// <summary>Creates the database when missing, then applies what has not run yet. Returns the scripts applied.</summary>
    public static async Task<IReadOnlyList<string>> MigrateAsync(string connectionString, CancellationToken ct)
    {
        await EnsureDatabaseAsync(connectionString, ct);
        await using var connection = new SqlConnection(connectionString);
        await connection.OpenAsync(ct);

        // One migrator at a time (three API replicas may start together); the lock ends with the session.
        await ExecuteAsync(connection, Own("lock"), ct);

        var recorded = new Dictionary<string, string?>(StringComparer.Ordinal);
        await using (var read = new SqlCommand(Own("read"), connection))
        await using (var row = await read.ExecuteReaderAsync(ct))
        {
            while (await row.ReadAsync(ct))
            {
                recorded[row.GetString(0)] = row.IsDBNull(1) ? null : row.GetString(1);
            }
        }

        var applied = new List<string>();
        foreach (var step in Plan(Scripts(), recorded))
        {
            if (step.Run)
            {
                foreach (var batch in SplitBatches(step.Text))
                {
                    await ExecuteAsync(connection, batch, ct);
                }
                applied.Add(step.Version);
            }
            await using var record = new SqlCommand(Own("record"), connection);
            record.Parameters.Add("@v", System.Data.SqlDbType.NVarChar, 200).Value = step.Version;
            record.Parameters.Add("@sum", System.Data.SqlDbType.Char, 64).Value = step.Checksum;
            await record.ExecuteNonQueryAsync(ct);
        }
        return applied;
    }

    /// <summary>One script's turn: whether it runs, and the checksum recorded for it afterwards.</summary>
    public sealed record MigrationStep(string Version, string Text, string Checksum, bool Run);

    /// <summary>
    /// What to do with each script, given what ran before (version to recorded checksum, null when
    /// it was recorded before checksums were): the schema scripts' steps in file order, then the
    /// procedure scripts'. Scripts whose record already holds their checksum are left out, unless an
    /// earlier procedure script runs again.
    /// </summary>
    public static IReadOnlyList<MigrationStep> Plan(IEnumerable<(string Version, string Text)> scripts, IReadOnlyDictionary<string, string?> recorded)
    {
        var steps = new List<MigrationStep>();
        var procsAgain = false;
        foreach (var (version, text) in scripts)
        {
            var sum = Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(Encoding.UTF8.GetBytes(text)));
            var isProc = IsProc(version);
            if (!recorded.TryGetValue(version, out var before))
            {
                steps.Add(new MigrationStep(version, text, sum, Run: true));
                procsAgain |= isProc;
            }
            else if (isProc && (before != sum || procsAgain))
            {
                steps.Add(new MigrationStep(version, text, sum, Run: true));
                procsAgain = true;
            }
            else if (before != sum)
            {
                steps.Add(new MigrationStep(version, text, sum, Run: false)); // ran once; only its record is brought up to date
            }
        }
        return [.. steps.Where(s => !IsProc(s.Version)), .. steps.Where(s => IsProc(s.Version))];
    }

    private static bool IsProc(string version) => version.Contains("_proc_", StringComparison.Ordinal);

    /// <summary>The embedded scripts in deploy order, as (file name, text).</summary>
    public static IReadOnlyList<(string Version, string Text)> Scripts()
    {
        var assembly = typeof(SqlServerMigrator).Assembly;
        return [.. assembly.GetManifestResourceNames()
            .Where(n => n.StartsWith(Prefix, StringComparison.Ordinal))
            .Order(StringComparer.Ordinal)
            .Select(n => (n[Prefix.Length..], Read(assembly, n)))];
    }

    /// <summary>Splits a script on lines that hold only GO (any case, optional trailing comment), as sqlcmd does.</summary>
    public static IReadOnlyList<string> SplitBatches(string script)
    {
        var batches = new List<string>();
        var current = new StringBuilder();
        foreach (var line in script.ReplaceLineEndings("\n").Split('\n'))
        {
            if (GoLine().IsMatch(line))
            {
                Flush();
                continue;
            }
            current.Append(line).Append('\n');
        }
        Flush();
        return batches;

        void Flush()
        {
            var batch = current.ToString();
            if (!string.IsNullOrWhiteSpace(batch))
            {
                batches.Add(batch.TrimEnd());
            }
            current.Clear();
        }
    }

    private static async Task EnsureDatabaseAsync(string connectionString, CancellationToken ct)
    {
        var target = new SqlConnectionStringBuilder(connectionString);
        if (string.IsNullOrEmpty(target.InitialCatalog) || target.InitialCatalog.Equals("master", StringComparison.OrdinalIgnoreCase))
        {
            return;
        }
        var master = new SqlConnectionStringBuilder(connectionString) { InitialCatalog = "master" };
        await using var connection = new SqlConnection(master.ConnectionString);
        await connection.OpenAsync(ct);
        await using var create = new SqlCommand(Own("create_database"), connection);
        create.Parameters.Add("@name", System.Data.SqlDbType.NVarChar, 128).Value = target.InitialCatalog;
        await create.ExecuteNonQueryAsync(ct);
    }

    private static async Task ExecuteAsync(SqlConnection connection, string sql, CancellationToken ct)
    {
        // DDL on a big window (or the first filegroup container) may take longer than the default 30 s.
        await using var command = new SqlCommand(sql, connection) { CommandTimeout = 600 };
        await command.ExecuteNonQueryAsync(ct);
    }

    /// <summary>One of the migrator's own batches, sql/migrator/NAME.sql.</summary>
    public static string Own(string name) => Read(typeof(SqlServerMigrator).Assembly, OwnPrefix + name + ".sql");

    private static string Read(Assembly assembly, string name)
    {
        using var stream = assembly.GetManifestResourceStream(name)!;
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }

    [GeneratedRegex(@"^\s*GO\s*(--.*)?$", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex GoLine();
}

/// <summary>The <see cref="ISchemaMigrator"/> the API runs at start when Slots:Storage:MigrateOnStart is true.</summary>
internal sealed class SqlServerSchemaMigrator(string connectionString) : ISchemaMigrator
{
    public Task MigrateAsync(CancellationToken ct) => SqlServerMigrator.MigrateAsync(connectionString, ct);
}
