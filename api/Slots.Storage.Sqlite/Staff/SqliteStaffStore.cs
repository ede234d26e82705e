using Microsoft.Extensions.DependencyInjection;
using Slots.Staff;
using Slots.Storage.Ef.Staff;

namespace Slots.Storage.Sqlite.Staff;

/// <summary>The staff side on SQLite: reads through EF Core, the check-in through the one writer, like a cancel.</summary>
public sealed class SqliteStaffStore(IServiceScopeFactory scopes, SqliteWriter writer) : EfStaffStore(scopes)
{
    public override async Task<CheckInAnswer> CheckInAsync(CheckInCommand command, CancellationToken ct) =>
        await writer.WriteAsync(hot => hot.CheckIn(command), ct);
}
