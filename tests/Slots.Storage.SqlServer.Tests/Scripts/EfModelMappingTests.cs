using System.Globalization;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Metadata;
using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Storage.Ef;
using Slots.Storage.SqlServer.Ef;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// The shared EF Core model on SQL Server's provider against the tables sql/ creates, with no server:
/// every table and column EF Core would read or write exists there with the type, nullability, key
/// and memory-optimized flag the scripts give it. A renamed column, a nvarchar parameter against a
/// varchar code, or a hot table EF takes for a disk one fails here, not on the first server it meets.
/// </summary>
public sealed class EfModelMappingTests
{
    private sealed record ScriptColumn(string Type, bool Nullable);

    private sealed record ScriptTable(Dictionary<string, ScriptColumn> Columns, List<string> Key, bool MemoryOptimized);

    private static readonly Lazy<Dictionary<string, ScriptTable>> Scripts = new(ReadScripts);

    private static readonly Lazy<IModel> Model = new(() =>
    {
        var options = new DbContextOptionsBuilder<SlotsDbContext>();
        SqlServerModel.Use(options, "Server=127.0.0.1,1;Database=slots;User Id=sa;Password=unused");
        using var db = new SlotsDbContext(options.Options);
        return db.GetService<IDesignTimeModel>().Model;
    });

    public static TheoryData<string> MappedTables() => [.. Model.Value.GetRelationalModel().Tables.Select(t => t.Name).Order(StringComparer.Ordinal)];

    [Theory]
    [MemberData(nameof(MappedTables))]
    public void Each_column_EF_Core_maps_is_in_the_scripts_with_their_type_and_nullability(string name)
    {
        Assert.True(Scripts.Value.TryGetValue(name, out var script), $"sql/ creates no table {name}");
        var table = Model.Value.GetRelationalModel().Tables.Single(t => t.Name == name);
        var mismatches = new List<string>();
        foreach (var column in table.Columns)
        {
            if (!script.Columns.TryGetValue(column.Name, out var declared))
            {
                mismatches.Add($"{column.Name}: not in sql/");
                continue;
            }
            if (!string.Equals(column.StoreType, declared.Type, StringComparison.OrdinalIgnoreCase))
            {
                mismatches.Add($"{column.Name}: EF {column.StoreType}, sql/ {declared.Type}");
            }
            if (column.IsNullable != declared.Nullable)
            {
                mismatches.Add($"{column.Name}: EF {(column.IsNullable ? "NULL" : "NOT NULL")}, sql/ {(declared.Nullable ? "NULL" : "NOT NULL")}");
            }
        }
        Assert.Empty(mismatches);
    }

    [Theory]
    [MemberData(nameof(MappedTables))]
    public void Each_mapped_table_has_the_scripts_key_and_storage(string name)
    {
        var script = Scripts.Value[name];
        var table = Model.Value.GetRelationalModel().Tables.Single(t => t.Name == name);

        Assert.Equal(script.Key, table.PrimaryKey!.Columns.Select(c => c.Name));
        Assert.Equal(script.MemoryOptimized, table.EntityTypeMappings.First().TypeBase.ContainingEntityType.IsMemoryOptimized());
    }

    [Fact]
    public void Every_memory_optimized_table_EF_Core_maps_is_named_as_one()
    {
        var mapped = Model.Value.GetRelationalModel().Tables.Select(t => t.Name).ToHashSet(StringComparer.Ordinal);
        var memoryOptimized = Scripts.Value.Where(t => t.Value.MemoryOptimized && mapped.Contains(t.Key)).Select(t => t.Key);

        Assert.Equal(memoryOptimized.Order(StringComparer.Ordinal), SqlServerModel.MemoryOptimized.Order(StringComparer.Ordinal));
    }

    /// <summary>Every table of sql/: its CREATE TABLE with the columns later scripts ADD.</summary>
    private static Dictionary<string, ScriptTable> ReadScripts()
    {
        var tables = new Dictionary<string, ScriptTable>(StringComparer.Ordinal);
        foreach (var file in SqlScripts.Files().Select(f => Path.GetFileName(f)).Where(f => f != SqlScripts.QuartzJobStore))
        {
            var tree = SqlScripts.Tree(file);
            foreach (var create in SqlScripts.All<CreateTableStatement>(tree).Where(c => !c.SchemaObjectName.BaseIdentifier.Value.StartsWith('#')))
            {
                var key = create.Definition.TableConstraints.OfType<UniqueConstraintDefinition>().SingleOrDefault(c => c.IsPrimaryKey);
                var keyColumns = key?.Columns.Select(c => c.Column.MultiPartIdentifier.Identifiers[^1].Value).ToList() ?? [];
                var columns = create.Definition.ColumnDefinitions.ToDictionary(
                    c => c.ColumnIdentifier.Value, c => Column(c, keyColumns), StringComparer.Ordinal);
                var memoryOptimized = create.Options.OfType<MemoryOptimizedTableOption>().Any(o => o.OptionState == OptionState.On);
                tables[SqlScripts.NameOf(create.SchemaObjectName)] = new ScriptTable(columns, keyColumns, memoryOptimized);
            }
            foreach (var alter in SqlScripts.All<AlterTableAddTableElementStatement>(tree))
            {
                var table = tables[SqlScripts.NameOf(alter.SchemaObjectName)];
                foreach (var column in alter.Definition.ColumnDefinitions)
                {
                    table.Columns[column.ColumnIdentifier.Value] = Column(column, table.Key);
                }
            }
        }
        return tables;
    }

    private static ScriptColumn Column(ColumnDefinition column, List<string> key)
    {
        var type = (SqlDataTypeReference)column.DataType;
        var name = type.SqlDataTypeOption.ToString().ToLowerInvariant();
        var size = type.Parameters.Count == 0
            ? ""
            : "(" + string.Join(",", type.Parameters.Select(p => p is MaxLiteral ? "max" : p.Value)) + ")";
        var notNull = column.Constraints.OfType<NullableConstraintDefinition>().Any(c => !c.Nullable) || key.Contains(column.ColumnIdentifier.Value);
        return new ScriptColumn(string.Create(CultureInfo.InvariantCulture, $"{name}{size}"), !notNull);
    }
}
