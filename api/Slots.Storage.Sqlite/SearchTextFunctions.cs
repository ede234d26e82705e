using System.Data.Common;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore.Diagnostics;
using Slots.Storage.Ef;

namespace Slots.Storage.Sqlite;

/// <summary>
/// Registers <see cref="SearchText.LowerFunction"/> on every connection EF Core opens: SQLite's
/// lower() and LIKE fold only ASCII letters, so the name search lower-cases in .NET instead. A
/// per-row call into .NET is fine here: the search scans at most a few thousand places.
/// </summary>
internal sealed class SearchTextFunctions : DbConnectionInterceptor
{
    public static readonly SearchTextFunctions Instance = new();

    public override void ConnectionOpened(DbConnection connection, ConnectionEndEventData eventData) => Register(connection);

    public override Task ConnectionOpenedAsync(DbConnection connection, ConnectionEndEventData eventData, CancellationToken cancellationToken = default)
    {
        Register(connection);
        return Task.CompletedTask;
    }

    private static void Register(DbConnection connection) =>
        ((SqliteConnection)connection).CreateFunction<string?, string?>(
            SearchText.LowerFunction, text => text is null ? null : SearchText.Lower(text), isDeterministic: true);
}
