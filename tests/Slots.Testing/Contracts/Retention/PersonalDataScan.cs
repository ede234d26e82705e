using Slots.Testing.Web;

namespace Slots.Testing.Contracts.Retention;

/// <summary>
/// Looks for a person in every text column of every table of a host's database, whatever the
/// backend: where retention or a person's erasure left their name, phone or hash behind.
/// </summary>
public sealed class PersonalDataScan(Rows rows, string provider)
{
    /// <summary>Every text column of every table, as (table, column).</summary>
    private Task<List<(string Table, string Column)>> TextColumnsAsync() => rows.QueryAsync(provider switch
    {
        "Postgres" => """
            SELECT table_name, column_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND data_type IN ('text', 'character varying', 'character')
            """,
        "SqlServer" => """
            SELECT TABLE_NAME, COLUMN_NAME FROM INFORMATION_SCHEMA.COLUMNS
            WHERE TABLE_SCHEMA = 'dbo' AND DATA_TYPE IN ('varchar', 'nvarchar', 'char', 'nchar')
            """,
        _ => """
            SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p
            WHERE m.type = 'table' AND (upper(p.type) LIKE '%TEXT%' OR upper(p.type) LIKE '%CHAR%')
            """,
    }, r => (r.GetString(0), r.GetString(1)));

    /// <summary>Where any of <paramref name="values"/> still appears: "table.column" for each hit.</summary>
    public async Task<List<string>> WhereHeldAsync(IEnumerable<string> values)
    {
        var hits = new List<string>();
        var columns = await TextColumnsAsync();
        Assert.NotEmpty(columns);
        foreach (var value in values)
        {
            foreach (var (table, column) in columns)
            {
                var found = await rows.CountAsync($"""SELECT COUNT(*) FROM "{table}" WHERE "{column}" LIKE @v""", ("@v", "%" + value + "%"));
                if (found > 0)
                {
                    hits.Add($"{table}.{column}");
                }
            }
        }
        return hits;
    }
}
