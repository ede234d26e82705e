using Microsoft.Data.SqlClient;
using Slots.Testing.Web;

namespace Slots.Storage.SqlServer.Tests;

/// <summary>
/// SQL Server, named by the SLOTS_SQLSERVER connection string (a login that may create databases):
/// a fresh database per host, migrated by the host at start, dropped afterwards. Without the
/// variable every test of the suite is reported skipped with that reason, never passed.
/// </summary>
public sealed class SqlServerBackend : IBackend
{
    public const string Variable = "SLOTS_SQLSERVER";

    private readonly List<string> _databases = [];
    private readonly string? _server = Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } value ? value : null;

    public string Name => "sqlserver";

    public async Task<IReadOnlyDictionary<string, string?>> CreateDatabaseAsync(string name, CancellationToken ct)
    {
        if (_server is null)
        {
            // The one backend that may skip under CI too: no SQL Server runs on the machines here (docs/sqlserver.md).
            Assert.Skip($"{Variable} is not set: the suite needs a SQL Server 2016 SP1+ (see docs/sqlserver.md)");
        }
        await using (var master = await OpenMasterAsync(ct))
        await using (var create = new SqlCommand($"CREATE DATABASE [{name}]", master))
        {
            await create.ExecuteNonQueryAsync(ct);
        }
        _databases.Add(name);
        return new Dictionary<string, string?>
        {
            ["Slots:Storage:Provider"] = "SqlServer",
            ["ConnectionStrings:Slots"] = new SqlConnectionStringBuilder(_server) { InitialCatalog = name }.ConnectionString,
        };
    }

    public async ValueTask DisposeAsync()
    {
        if (_server is null)
        {
            return;
        }
        SqlConnection.ClearAllPools();
        await using var master = await OpenMasterAsync(CancellationToken.None);
        foreach (var name in _databases)
        {
            await using var drop = new SqlCommand(
                $"ALTER DATABASE [{name}] SET SINGLE_USER WITH ROLLBACK IMMEDIATE; DROP DATABASE [{name}];", master);
            await drop.ExecuteNonQueryAsync();
        }
    }

    private async Task<SqlConnection> OpenMasterAsync(CancellationToken ct)
    {
        var connection = new SqlConnection(new SqlConnectionStringBuilder(_server) { InitialCatalog = "master" }.ConnectionString);
        await connection.OpenAsync(ct);
        return connection;
    }
}
